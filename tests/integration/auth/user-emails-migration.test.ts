import { afterAll, describe, expect, it } from 'vitest';
import { createOrm, type Orm } from '../../../server/database/create-orm.ts';
import { migrateUp, migrationStatus } from '../../../server/database/migrations.ts';
import { createLogger } from '../../../server/logger.ts';
import { createEmptyDatabase, type TestDatabase } from '../../helpers/test-database.ts';

const MIGRATION = '20261123000002-auth-normalised-emails';

/** An empty database migrated up to (not including) the e-mail migration. */
async function beforeEmailMigration(opened: Array<{ orm: Orm; database: TestDatabase }>): Promise<Orm> {
  const database = await createEmptyDatabase();
  const orm = await createOrm(database.url, 2, createLogger({ level: 'silent', style: 'raw' }));
  opened.push({ orm, database });
  while ((await orm.migrator.getPending())[0]?.name !== MIGRATION) await migrateUp(orm);
  return orm;
}

describe(`migration ${MIGRATION}`, () => {
  const opened: Array<{ orm: Orm; database: TestDatabase }> = [];
  afterAll(async () => {
    for (const { orm, database } of opened) {
      await orm.close(true);
      await database.drop();
    }
  });

  it('lowercases and trims existing e-mails, then makes lower(email) unique', async () => {
    const orm = await beforeEmailMigration(opened);
    const conn = orm.em.getConnection();
    await conn.execute(`insert into tessera_users (email) values (' Mixed@Example.COM '), ('plain@example.com'), (null)`);
    expect(await migrateUp(orm)).toEqual([MIGRATION]);
    const rows = (await conn.execute(`select email from tessera_users order by email nulls last`)) as Array<{ email: string | null }>;
    expect(rows.map((row) => row.email)).toEqual(['mixed@example.com', 'plain@example.com', null]);
    await expect(conn.execute(`insert into tessera_users (email) values ('PLAIN@example.com')`)).rejects.toThrow(/tessera_users_email_lower_unique/);
  });

  it('stops, naming the problem, when two users\' addresses differ only in case', async () => {
    const orm = await beforeEmailMigration(opened);
    await orm.em.getConnection().execute(`insert into tessera_users (email) values ('dup@example.com'), ('DUP@example.com')`);
    await expect(migrateUp(orm)).rejects.toThrow(/differ only in case/);
    expect((await migrationStatus(orm)).find((state) => state.name === MIGRATION)?.executedAt).toBeNull();
  });
});
