import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest } from '../../../server/database/migrations.ts';
import { migrateProjectLatest } from '../../../server/database/project-migrations.ts';
import { loadSnapshotFolder } from '../../../server/snapshot/load-snapshot.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { EXAMPLE_FOLDER, snapshotService } from '../snapshot/snapshot-helpers.ts';

/** DB_STATEMENT_TIMEOUT (here 200 ms) bounds requests, but not migrations and schema apply run by the same process. */
describe('migrations and schema apply run without the statement timeout', () => {
  let t: TestApp;
  let folder: string;
  beforeAll(async () => {
    t = await createTestApp({ DB_STATEMENT_TIMEOUT: '200ms' });
    folder = mkdtempSync(path.join(tmpdir(), 'tessera-slow-migration-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('the pool does enforce the lowered timeout (the premise)', async () => {
    const error = await sql`select pg_sleep(0.5)`.execute(t.context.database.kysely()).catch((caught: unknown) => caught);
    expect(String((error as Error).message)).toMatch(/statement timeout/);
  });

  it('a project migration step sleeping 0.5 s completes, and the pool keeps its timeout afterwards', async () => {
    writeFileSync(
      path.join(folder, '20261123000000-slow.mjs'),
      'export async function up(db) { await db.selectNoFrom((eb) => eb.fn("pg_sleep", [eb.lit(0.5)]).as("slept")).execute(); }\n',
    );
    expect(await migrateProjectLatest(t.context.database.kysely(), folder)).toEqual(['project/20261123000000-slow']);
    const { rows } = await sql<{ timeout: string }>`select current_setting('statement_timeout') as timeout`.execute(t.context.database.kysely());
    expect(rows[0]!.timeout).toBe('200ms');
  });

  it('system migrations still complete while the migrate lock is held longer than the timeout', async () => {
    const holder = new pg.Client({ connectionString: t.testDatabase.url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query(`select pg_advisory_xact_lock(hashtext('tessera:migrate'))`);
      const running = migrateLatest(t.context.database.orm);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await holder.query('commit');
      expect(await running).toEqual([]);
    } finally {
      await holder.end();
    }
  });

  it('a schema apply with a step slower than the timeout completes', async () => {
    const result = await snapshotService(t).apply(loadSnapshotFolder(EXAMPLE_FOLDER), {
      beforeCommit: async (trx) => {
        await sql`select pg_sleep(0.5)`.execute(trx);
      },
    });
    expect(result.applied).toBe(true);
  });
});
