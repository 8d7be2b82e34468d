import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrm, type Orm } from '../../../server/database/create-orm.ts';
import { migrateLatest, migrationStatus } from '../../../server/database/migrations.ts';
import { createLogger } from '../../../server/logger.ts';
import { createEmptyDatabase, type TestDatabase } from '../../helpers/test-database.ts';

describe('migrateLatest', () => {
  let database: TestDatabase;
  const orms: Orm[] = [];
  beforeAll(async () => {
    database = await createEmptyDatabase();
  });
  afterAll(async () => {
    await Promise.all(orms.map((orm) => orm.close(true)));
    await database.drop();
  });

  it('runs each migration once when several instances migrate at the same time', async () => {
    const logger = createLogger({ level: 'silent', style: 'raw' });
    for (let i = 0; i < 3; i++) orms.push(await createOrm(database.url, 2, logger));
    const results = await Promise.all(orms.map((orm) => migrateLatest(orm)));
    const ran = results.flat();
    const status = await migrationStatus(orms[0]!);
    expect(ran).toEqual(status.map((state) => state.name));
    expect(status.every((state) => state.executedAt !== null)).toBe(true);
  });
});
