import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../helpers/own-servers.ts';
import { adminQuery } from '../../helpers/postgres.ts';
import { createTestApp } from '../../helpers/test-app.ts';

describe('GET /server/ready (readiness for orchestrators)', () => {
  it('is ready on a migrated database, and not while a system migration is pending', async () => {
    const t = await createTestApp();
    try {
      const ready = await t.request.get('/server/ready').expect(200);
      expect(ready.headers['cache-control']).toBe('no-store');
      expect(ready.body).toEqual({ status: 'ok', checks: { database: { status: 'ok', responseTime: expect.any(Number) }, migrations: { status: 'ok' } } });

      // As on a database an older version migrated: the newest system migration has not run.
      const db = t.context.database.kysely();
      const { rows } = await sql<{ name: string; executed_at: Date }>`select name, executed_at from tessera_migrations order by name desc limit 1`.execute(db);
      const newest = rows[0]!;
      await sql`delete from tessera_migrations where name = ${newest.name}`.execute(db);
      const pending = await t.request.get('/server/ready').expect(503);
      expect(pending.body.status).toBe('error');
      expect(pending.body.checks.migrations).toEqual({ status: 'error', output: 'system migrations pending: run `tessera migrate`' });
      // Liveness is another question: the process answers.
      await t.request.get('/server/ping').expect(200);

      await sql`insert into tessera_migrations (name, executed_at) values (${newest.name}, ${newest.executed_at})`.execute(db);
      await t.request.get('/server/ready').expect(200);
    } finally {
      await t.close();
    }
  });

  it('is not ready when the database is gone', async () => {
    const t = await createTestApp();
    try {
      await t.request.get('/server/ready').expect(200);
      await adminQuery(`drop database "${t.testDatabase.name}" with (force)`);
      const response = await t.request.get('/server/ready').expect(503);
      expect(response.body).toEqual({ status: 'error', checks: { database: { status: 'error', output: 'database unreachable' } } });
    } finally {
      await t.close();
    }
  });

  it('stays ready with a warning while Redis is unreachable (every instance shares it; each has local fallbacks)', async () => {
    const t = await createTestApp({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    try {
      const response = await t.request.get('/server/ready').expect(200);
      expect(response.body.status).toBe('warn');
      expect(response.body.checks.redis).toEqual({ status: 'warn', output: 'redis unreachable: local fallbacks in use' });
      expect(response.body.checks.migrations).toEqual({ status: 'ok' });
    } finally {
      await t.close();
    }
  });
});
