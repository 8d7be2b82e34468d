import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ItemsService } from '../../../server/services/items/items-service.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Counts the statements a service sends (transaction control is not a statement here). */
function statementCounter(): { plugin: KyselyPlugin; count: () => number; reset: () => void } {
  let count = 0;
  return {
    plugin: {
      // Called once per statement sent (a builder embedded in another statement is transformed, not sent).
      transformQuery: (args) => args.node,
      transformResult: (args) => {
        count += 1;
        return Promise.resolve(args.result);
      },
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

  it('creates a flat item in ONE statement (no BEGIN/COMMIT); updates and deletes in two: the write, then activity + revision', async () => {
    const counter = statementCounter();
    const schema = await t.context.schema.get();
    const service = new ItemsService('notes', { ...t.system, db: t.system.db.withPlugin(counter.plugin), schema });

    const key = await service.createOne({ text: 'first' });
    expect(counter.count()).toBe(1);
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

  it('records the one-statement create per the collection accountability, and a failing insert leaves no activity', async () => {
    const admin = await t.login();
    const auth = { Authorization: `Bearer ${admin}` };
    await t.request.post('/collections').set(auth).send({ collection: 'logged', meta: { accountability: 'activity' }, fields: [{ field: 'code', type: 'string', schema: { is_unique: true } }] }).expect(200);
    await t.request.post('/collections').set(auth).send({ collection: 'untracked', meta: { accountability: null }, fields: [{ field: 'code', type: 'string' }] }).expect(200);
    const created = await t.request.post('/items/logged').set(auth).set('User-Agent', 'probe/1').send({ code: 'a' }).expect(200);
    await t.request.post('/items/untracked').set(auth).send({ code: 'b' }).expect(200);
    const duplicate = await t.request.post('/items/logged').set(auth).send({ code: 'a' }).expect(400);
    expect(duplicate.body.errors[0].extensions).toMatchObject({ code: 'RECORD_NOT_UNIQUE', field: 'code' });

    const activity = await t.system.db.selectFrom('tessera_activity').select(['action', 'collection', 'item', 'user', 'user_agent']).where('collection', 'in', ['logged', 'untracked']).execute();
    const me = await t.request.get('/users/me').set(auth).expect(200);
    expect(activity).toEqual([{ action: 'create', collection: 'logged', item: String(created.body.data.id), user: me.body.data.id, user_agent: 'probe/1' }]);
    const revisions = await t.system.db.selectFrom('tessera_revisions').select('id').where('collection', 'in', ['logged', 'untracked']).execute();
    expect(revisions).toEqual([]);
  });

  it('with an item filter listening, creates inside a transaction: the filter, then ONE insert statement; a refusal rolls back what the filter wrote', async () => {
    await sql`create table filter_log (note text)`.execute(t.system.db);
    const seen: string[] = [];
    const off = t.context.events.onFilter('notes.items.create', async (payload, meta) => {
      // The filter joins the write's transaction: its row commits or rolls back with the item.
      if (payload.text === 'logged' || payload.text === 'refused') await sql`insert into filter_log (note) values (${String(payload.text)})`.execute(meta.transaction!.db);
      if (payload.text === 'refused') throw new Error('refused by the filter');
      return { ...payload, text: `${String(payload.text)}!` };
    });
    const offAction = t.context.events.onAction('notes.items.create', async (meta) => {
      // After the commit: the row is visible to another connection.
      const row = await t.system.db.selectFrom('notes').select('text').where('id', '=', meta.keys[0]!).executeTakeFirst();
      seen.push(String(row?.text));
    });
    try {
      const counter = statementCounter();
      const schema = await t.context.schema.get();
      const service = new ItemsService('notes', { ...t.system, db: t.system.db.withPlugin(counter.plugin), schema });
      await service.createOne({ text: 'hooked' });
      expect(counter.count()).toBe(1);
      await service.createOne({ text: 'logged' });
      await expect(service.createOne({ text: 'refused' })).rejects.toThrow('refused by the filter');
      await service.createOne({ text: 'sentinel' });
      // Action handlers run side by side after their commits, so they finish in any order; the refused write's
      // would have begun before the sentinel's write did, and idle() waits for every handler still running.
      await expect.poll(() => [...seen].sort()).toEqual(['hooked!', 'logged!', 'sentinel!']);
      await t.context.events.idle();
      expect([...seen].sort()).toEqual(['hooked!', 'logged!', 'sentinel!']);
      expect((await sql<{ note: string }>`select note from filter_log`.execute(t.system.db)).rows).toEqual([{ note: 'logged' }]);
      const revisions = await t.system.db.selectFrom('tessera_revisions').select(['data', 'delta']).where('collection', '=', 'notes').orderBy('id', 'desc').limit(1).execute();
      expect(revisions.map((revision) => [revision.data.text, revision.delta.text])).toEqual([['sentinel!', 'sentinel!']]);
    } finally {
      off();
      offAction();
    }
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
