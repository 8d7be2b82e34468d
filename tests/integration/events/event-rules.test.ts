import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ActionPayload } from '../../../server/events/event-names.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Rules of docs/automation.md about the event spine that item-events.test.ts does not send (issue 37 item 1). */
let t: TestApp;
let admin: string;
let writer: string;
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const offs: Array<() => void> = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  await t.request
    .post('/collections')
    .set(auth(admin))
    .send({ collection: 'posts', fields: [{ field: 'title', type: 'string', schema: { is_nullable: false } }, { field: 'featured', type: 'boolean' }] })
    .expect(200);
  const role = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Writer' }).expect(200)).body.data.id as string;
  await t.request.post('/permissions').set(auth(admin)).send({ role, collection: 'posts', action: 'create', fields: ['title'] }).expect(200);
  await t.request.post('/permissions').set(auth(admin)).send({ role, collection: 'posts', action: 'read', fields: ['*'] }).expect(200);
  await t.request.post('/users').set(auth(admin)).send({ email: 'writer@example.com', password: 'writer-password-1', role, status: 'active' }).expect(200);
  writer = await t.login('writer@example.com', 'writer-password-1');
});

afterEach(async () => {
  for (const off of offs.splice(0)) off();
  await t.context.events.idle();
});

afterAll(async () => {
  await t?.close();
});

describe('filters', () => {
  it('run the generic event first, then the collection one, each seeing the previous result', async () => {
    offs.push(t.context.events.onFilter('posts.items.create', (payload) => ({ ...payload, title: `${String(payload.title)}+collection` })));
    offs.push(t.context.events.onFilter('items.create', (payload) => ({ ...payload, title: `${String(payload.title)}+generic` })));
    const created = await t.request.post('/items/posts').set(auth(admin)).send({ title: 'order' }).expect(200);
    expect(created.body.data.title).toBe('order+generic+collection');
  });

  it('hand a payload that still passes validation and the caller permissions', async () => {
    offs.push(t.context.events.onFilter('posts.items.create', (payload) => ({ ...payload, title: null })));
    const invalid = await t.request.post('/items/posts').set(auth(admin)).send({ title: 'valid when sent' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0].extensions.field).toBe('title');
    for (const off of offs.splice(0)) off();

    // The writer may create posts with a title only: a filter cannot slip another field past the permission.
    offs.push(t.context.events.onFilter('posts.items.create', (payload) => ({ ...payload, featured: true })));
    const refused = await t.request.post('/items/posts').set(auth(writer)).send({ title: 'smuggled' });
    expect(refused.status).toBe(403);
    const rows = await t.system.db.selectFrom('posts').select('id').where('title', 'in', ['valid when sent', 'smuggled']).execute();
    expect(rows).toEqual([]);
  });
});

describe('actions', () => {
  it('a PATCH or DELETE of several items is one action with every key (payload null for the delete)', async () => {
    const created = await t.request.post('/items/posts').set(auth(admin)).send([{ title: 'a' }, { title: 'b' }, { title: 'c' }]).expect(200);
    const keys = (created.body.data as Array<{ id: number }>).map((item) => item.id);
    const seen: ActionPayload[] = [];
    offs.push(t.context.events.onAction('posts.items.update', (meta) => void seen.push(meta)));
    offs.push(t.context.events.onAction('posts.items.delete', (meta) => void seen.push(meta)));
    await t.request.patch('/items/posts').set(auth(admin)).send({ keys, data: { title: 'same' } }).expect(200);
    await t.request.delete('/items/posts').set(auth(admin)).send(keys).expect(204);
    await t.context.events.idle();
    expect(seen.map(({ event, keys: written, payload }) => ({ event, keys: [...written].sort(), payload }))).toEqual([
      { event: 'posts.items.update', keys: [...keys].sort(), payload: { title: 'same' } },
      { event: 'posts.items.delete', keys: [...keys].sort(), payload: null },
    ]);
  });
});
