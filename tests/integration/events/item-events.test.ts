import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ActionPayload } from '../../../server/events/event-names.ts';
import { FailedValidationError } from '../../../server/errors.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
let token: string;
const auth = () => ({ Authorization: `Bearer ${token}` });
const unsubscribe: Array<() => void> = [];

/** Records every action of the named events until the test ends. */
function record(...names: Parameters<typeof t.context.events.onAction>[0][]): ActionPayload[] {
  const seen: ActionPayload[] = [];
  for (const name of names) unsubscribe.push(t.context.events.onAction(name, (meta) => void seen.push(meta)));
  return seen;
}

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  await t.request.post('/collections').set(auth()).send({ collection: 'posts', fields: [{ field: 'title', type: 'string', schema: { is_nullable: false } }] }).expect(200);
  await t.request.post('/collections').set(auth()).send({ collection: 'comments', fields: [{ field: 'text', type: 'string' }] }).expect(200);
  await t.request.post('/fields/comments').set(auth()).send({ field: 'post', type: 'integer', meta: { special: ['m2o'] } }).expect(200);
  await t.request.post('/relations').set(auth()).send({ collection: 'comments', field: 'post', related_collection: 'posts', meta: { one_field: 'comments' } }).expect(200);
});

afterEach(async () => {
  for (const off of unsubscribe.splice(0)) off();
  await t.context.events.idle();
});

afterAll(async () => {
  await t?.close();
});

describe('filters', () => {
  it('may change the payload before the write', async () => {
    unsubscribe.push(t.context.events.onFilter('posts.items.create', (payload) => ({ ...payload, title: String(payload.title).toUpperCase() })));
    const created = await t.request.post('/items/posts').set(auth()).send({ title: 'quiet' }).expect(200);
    expect(created.body.data.title).toBe('QUIET');
  });

  it('may refuse a write with its error status; nothing is written', async () => {
    const { body } = await t.request.post('/items/posts').set(auth()).send({ title: 'keep' }).expect(200);
    unsubscribe.push(
      t.context.events.onFilter('items.update', (payload, meta) => {
        if (meta.collection === 'posts') throw new FailedValidationError('Posts are frozen.', { field: 'title' });
      }),
    );
    const refused = await t.request.patch(`/items/posts/${body.data.id}`).set(auth()).send({ title: 'changed' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ message: 'Posts are frozen.', extensions: { code: 'FAILED_VALIDATION', field: 'title' } });
    expect((await t.request.get(`/items/posts/${body.data.id}`).set(auth()).expect(200)).body.data.title).toBe('keep');
  });

  it('sees the keys of a delete and may refuse it', async () => {
    const { body } = await t.request.post('/items/posts').set(auth()).send({ title: 'doomed?' }).expect(200);
    const seen: unknown[] = [];
    unsubscribe.push(
      t.context.events.onFilter('posts.items.delete', (_payload, meta) => {
        seen.push(meta.keys);
        throw new FailedValidationError('Never delete posts.');
      }),
    );
    expect((await t.request.delete(`/items/posts/${body.data.id}`).set(auth())).status).toBe(400);
    expect(seen).toEqual([[body.data.id]]);
    await t.request.get(`/items/posts/${body.data.id}`).set(auth()).expect(200);
  });
});

describe('actions', () => {
  it('fire after commit with { event, collection, keys, payload, accountability }, for the one-statement create too', async () => {
    const seen = record('items.create', 'posts.items.create');
    // Read on another connection: the row must be committed when the action runs.
    const visible: unknown[] = [];
    unsubscribe.push(t.context.events.onAction('posts.items.create', async (meta) => void visible.push(...(await t.context.database.kysely().selectFrom('posts').select('title').where('id', '=', meta.keys[0]!).execute()))));
    const { body } = await t.request.post('/items/posts').set(auth()).send({ title: 'fast' }).expect(200);
    await t.context.events.idle();
    expect(visible).toEqual([{ title: 'fast' }]);
    expect(seen).toHaveLength(2);
    expect(seen.map((meta) => meta.event).sort()).toEqual(['items.create', 'posts.items.create']);
    expect(seen[0]).toMatchObject({ collection: 'posts', keys: [body.data.id], payload: { title: 'fast' } });
    expect(seen[0]!.accountability).toMatchObject({ admin: true, user: expect.any(String) });
  });

  it('fire for nested writes and system collections', async () => {
    const seen = record('items.create');
    await t.request.post('/items/posts').set(auth()).send({ title: 'with comments', comments: [{ text: 'one' }, { text: 'two' }] }).expect(200);
    await t.request.post('/roles').set(auth()).send({ name: 'Reviewer' }).expect(200);
    await t.context.events.idle();
    expect(seen.map((meta) => meta.collection).sort()).toEqual(['comments', 'comments', 'posts', 'tessera_roles']);
  });

  it('never fire for a rolled-back write', async () => {
    const [first, second] = (await t.request.post('/items/posts').set(auth()).send([{ title: 'first' }, { title: 'second' }]).expect(200)).body.data.map((post: { id: number }) => post.id);
    const seen = record('items.create', 'items.update');
    // The first update is written (its action queued), then the second breaks NOT NULL: the batch rolls back.
    expect((await t.request.patch('/items/posts').set(auth()).send([{ id: first, title: 'changed' }, { id: second, title: null }])).status).toBe(400);
    expect((await t.request.get(`/items/posts/${first}`).set(auth()).expect(200)).body.data.title).toBe('first');
    // The sentinel: a create issued after the rolled-back write, whose action must be heard.
    const sentinel = (await t.request.post('/items/posts').set(auth()).send({ title: 'sentinel' }).expect(200)).body.data.id;
    await expect.poll(() => seen.length).toBeGreaterThan(0);
    await t.context.events.idle();
    expect(seen.map((meta) => [meta.event, meta.keys.map(String)])).toEqual([['items.create', [String(sentinel)]]]);
  });

  it('neither slow nor fail the request that caused them', async () => {
    const logged: unknown[] = [];
    t.context.events.setLogger({ error: (details) => void logged.push(details) });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    unsubscribe.push(t.context.events.onAction('posts.items.update', () => gate));
    unsubscribe.push(
      t.context.events.onAction('posts.items.update', () => {
        throw new Error('handler bug');
      }),
    );
    const { body } = await t.request.post('/items/posts').set(auth()).send({ title: 'x' }).expect(200);
    await t.request.patch(`/items/posts/${body.data.id}`).set(auth()).send({ title: 'y' }).expect(200);
    release();
    await t.context.events.idle();
    expect(logged).toEqual([expect.objectContaining({ event: 'posts.items.update', err: expect.objectContaining({ message: 'handler bug' }) })]);
  });

  it('announce sign-ins as auth.login', async () => {
    const seen = record('auth.login');
    await t.login();
    await t.context.events.idle();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ event: 'auth.login', payload: { email: 'admin@example.com' }, accountability: { user: expect.any(String) } });
  });
});
