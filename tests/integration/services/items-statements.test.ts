import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ItemsService } from '../../../server/services/items/items-service.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Counts the statements a service sends (transaction control is not a statement here). */
function statementCounter(): { plugin: KyselyPlugin; count: () => number; reset: () => void } {
  let count = 0;
  return {
    plugin: {
      transformQuery: (args) => {
        count += 1;
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    },
    count: () => count,
    reset: () => {
      count = 0;
    },
  };
}

describe('ItemsService round trips per write (activity and revisions on)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const admin = await t.login();
    await t.request.post('/collections').set({ Authorization: `Bearer ${admin}` }).send({ collection: 'notes', fields: [{ field: 'text', type: 'string' }] }).expect(200);
  });
  afterAll(() => t.close());

  it('creates, updates and deletes an item in two statements each: the write, then activity + revision', async () => {
    const counter = statementCounter();
    const schema = await t.context.schema.get();
    const service = new ItemsService('notes', { ...t.system, db: t.system.db.withPlugin(counter.plugin), schema });

    const key = await service.createOne({ text: 'first' });
    expect(counter.count()).toBe(2);
    counter.reset();
    await service.updateOne(key, { text: 'second' });
    expect(counter.count()).toBe(2);
    counter.reset();
    await service.deleteOne(key);
    expect(counter.count()).toBe(2);

    const revisions = await t.system.db.selectFrom('tessera_revisions').select(['data', 'delta']).where('collection', '=', 'notes').orderBy('id').execute();
    expect(revisions.map((revision) => [revision.data.text, revision.delta.text])).toEqual([
      ['first', 'first'],
      ['second', 'second'],
    ]);
  });

  it('still refuses a batch with a missing key, leaving nothing changed', async () => {
    const schema = await t.context.schema.get();
    const service = new ItemsService('notes', { ...t.system, schema });
    const key = await service.createOne({ text: 'kept' });
    await expect(service.updateMany([key, 999_999], { text: 'changed' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(service.deleteMany([key, 999_999])).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await service.readOne(key, { fields: ['text'] })).toEqual({ text: 'kept' });
  });
});
