import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemAccountability } from '../../../server/auth/accountability.ts';
import { CollectionsService } from '../../../server/services/collections-service.ts';
import { FieldsService } from '../../../server/services/fields-service.ts';
import { RelationsService } from '../../../server/services/relations-service.ts';
import { metadataOf, tableExists } from '../../helpers/schema-facts.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

describe('schema services inside a caller transaction', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Creates two related collections through the services, all inside `trx`. */
  async function buildInside(trx: Parameters<TestApp['context']['servicesContext']>[1]) {
    const context = t.context.servicesContext(systemAccountability(), trx);
    const collections = new CollectionsService(context, t.context.schema);
    await collections.createOne({ collection: 'owners', fields: [{ field: 'name', type: 'string' }] });
    await collections.createOne({ collection: 'pets', fields: [{ field: 'name', type: 'string' }] });
    await new FieldsService(context, t.context.schema).createOne('pets', { field: 'owner', type: 'integer' });
    return new RelationsService(context, t.context.schema).createOne({ collection: 'pets', field: 'owner', related_collection: 'owners', meta: { one_field: 'pets' } });
  }

  it('sees its own uncommitted changes and leaves nothing behind on rollback', async () => {
    const failure = new Error('roll back');
    await expect(
      t.system.db.transaction().execute(async (trx) => {
        const relation = await buildInside(trx);
        expect(relation).toMatchObject({ collection: 'pets', field: 'owner', related_collection: 'owners' });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await tableExists(t.system.db, 'owners')).toBe(false);
    expect(await tableExists(t.system.db, 'pets')).toBe(false);
    expect(await metadataOf(t.system.db, 'pets')).toEqual({ collections: [], fields: [], relations: [] });
    const overview = await t.context.schema.get();
    expect(overview.collections.pets).toBeUndefined();
  });

  it('commits with the caller, and the cache shows the result', async () => {
    await t.system.db.transaction().execute((trx) => buildInside(trx));
    const overview = await t.context.schema.get();
    expect(overview.collections.owners?.fields.pets).toMatchObject({ alias: true, special: ['o2m'] });
    expect(overview.relations).toContainEqual(expect.objectContaining({ collection: 'pets', field: 'owner', relatedCollection: 'owners' }));
  });
});
