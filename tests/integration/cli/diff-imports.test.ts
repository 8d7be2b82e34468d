import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModuleLog } from '../../helpers/module-log.ts';
import { createMigratedDatabase, type TestDatabase } from '../../helpers/test-database.ts';

/**
 * `tessera diff` runs on every push in CI and in a developer's edit loop, `tessera snapshot` after each
 * schema change (issue 36: ≤ 1 s on 50 collections). Both only read: they open the database without the
 * app context (no services, caches, mail, Redis, extensions) and without MikroORM (a plain pg pool, the
 * pending-migrations check one read of the migrations table), and diff never loads the YAML writer.
 */
const NEVER_LOADED_BY_READS = [
  'server/app-context.ts',
  'server/snapshot/snapshot-service.ts',
  'server/services/fields-service.ts',
  'server/mail/mailer.ts',
  'server/redis/redis-client.ts',
  'server/extensions/extension-manager.ts',
  'koa',
  'graphql',
  'sharp',
  'nodemailer',
  'ioredis',
  '@mikro-orm/core',
  '@mikro-orm/sql',
  '@mikro-orm/postgresql',
  '@mikro-orm/migrations',
  'server/database/create-orm.ts',
  'migrations/index.ts',
];

describe('what diff and snapshot load', () => {
  const modules = createModuleLog();
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createMigratedDatabase();
  });
  afterAll(async () => {
    await database.drop();
    modules.remove();
  });

  it('snapshot and diff load no app context, service, server module or MikroORM; diff no YAML writer', { timeout: 60_000 }, () => {
    const env = { DB_URL: database.url, SECRET: 'a-secret-for-the-module-log-test-0123456789' };
    const folder = path.join(modules.dir, 'snapshots');
    mkdirSync(folder);
    const snapshot = modules.run(['snapshot', '--out', folder], { cwd: modules.dir, env });
    expect(snapshot.output).toMatch(/Wrote \d+ files/);
    expect(snapshot.code).toBe(0);
    expect(snapshot.loaded).toContain('server/snapshot/read-snapshot.ts'); // the hook sees our own files
    expect(snapshot.loaded.filter((name) => NEVER_LOADED_BY_READS.includes(name))).toEqual([]);

    const diff = modules.run(['diff', '--from', folder], { cwd: modules.dir, env });
    expect(diff.output).toContain('In sync');
    expect(diff.code).toBe(0);
    expect(diff.loaded).toContain('server/snapshot/load-snapshot.ts');
    expect(diff.loaded.filter((name) => [...NEVER_LOADED_BY_READS, 'yaml'].includes(name))).toEqual([]);
  });
});
