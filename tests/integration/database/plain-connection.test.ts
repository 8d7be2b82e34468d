import { readdirSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemMigrationNames } from '../../../migrations/names.ts';
import { loadConfig } from '../../../server/config/index.ts';
import { openDatabase, type Database } from '../../../server/database/database.ts';
import { openPlainDatabase, type PlainDatabase } from '../../../server/database/plain-connection.ts';
import { createLogger } from '../../../server/logger.ts';
import { createMigratedDatabase, type TestDatabase } from '../../helpers/test-database.ts';

/**
 * `diff` and `snapshot` read through a plain pg pool (issue 36), everything else through MikroORM's: both
 * must hand the schema reader the same values, and the reading commands' pending-migrations check must
 * know the same migrations as the migrator.
 */
describe('the plain connection against MikroORM’s', () => {
  let testDatabase: TestDatabase;
  let orm: Database;
  let plain: PlainDatabase;
  beforeAll(async () => {
    testDatabase = await createMigratedDatabase();
    const config = loadConfig({ DB_URL: testDatabase.url, SECRET: 'x'.repeat(40), LOG_LEVEL: 'silent' });
    orm = await openDatabase(config, createLogger(config.log));
    plain = await openPlainDatabase(config, createLogger(config.log));
  });
  afterAll(async () => {
    await plain?.close();
    await orm?.close();
    await testDatabase?.drop();
  });

  it('parses every type the same way: dates, timestamps and intervals (and their arrays) stay strings', async () => {
    const query = sql`select '2026-01-02'::date as d, '2026-01-02 03:04:05.678'::timestamp as ts, '2026-01-02 03:04:05+02'::timestamptz as tz,
      '1 day 02:03'::interval as iv, array['2026-01-02'::date, null] as ds, array['2026-01-02 03:04'::timestamp] as tss,
      array['2026-01-02 03:04+00'::timestamptz] as tzs, array['5 minutes'::interval] as ivs, 12::bigint as big, 1.50::numeric as num,
      '{"a":[1]}'::jsonb as j, array[1, 2]::int[] as ints, array['a', 'b,c'] as texts, true as b, 'ab'::bytea as bytes, 1.5::float8 as f`;
    const [viaOrm] = (await query.execute(orm.kysely())).rows;
    const [viaPlain] = (await query.execute(plain.kysely)).rows;
    expect(viaPlain).toEqual(viaOrm);
    expect(viaPlain).toMatchObject({ d: '2026-01-02', ds: ['2026-01-02', null], iv: '1 day 02:03:00', big: '12' });
  });

  it('knows every migration the migrator records, by the name it records', async () => {
    const files = readdirSync(new URL('../../../migrations/', import.meta.url)).filter((name) => /^\d{14}-.+\.ts$/.test(name));
    expect(systemMigrationNames).toEqual(files.map((name) => name.replace(/\.ts$/, '')).sort());
    const recorded = await sql<{ name: string }>`select name from tessera_migrations order by id`.execute(plain.kysely);
    expect(recorded.rows.map((row) => row.name)).toEqual(systemMigrationNames);
    expect(await orm.orm.migrator.getPending()).toEqual([]);
  });
});
