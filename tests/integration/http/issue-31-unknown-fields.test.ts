import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

// ITEMS_UNKNOWN_FIELDS (issue 31): a user collection refuses a field it lacks, naming it (the default), or,
// with `ignore`, drops it as Directus does, after the filter hooks (which may turn it into real fields), on
// every write path: creates, nested creates, updates, batch updates, and for a role whose fields are listed.
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function shapesApp(env: Record<string, string>): Promise<{ t: TestApp; admin: string }> {
  const t = await createTestApp(env);
  const admin = await t.login();
  const create = (collection: string, fields: object[]) => t.request.post('/collections').set(auth(admin)).send({ collection, fields }).expect(200);
  await create('drawings', [{ field: 'name', type: 'string' }]);
  await create('shapes', [{ field: 'name', type: 'string' }, { field: 'sides', type: 'integer' }, { field: 'drawing', type: 'integer' }]);
  await t.request.post('/relations').set(auth(admin)).send({ collection: 'shapes', field: 'drawing', related_collection: 'drawings', meta: { one_field: 'shapes' } }).expect(200);
  return { t, admin };
}

describe('unknown fields in item payloads (ITEMS_UNKNOWN_FIELDS)', () => {
  let refusing: { t: TestApp; admin: string };
  let ignoring: { t: TestApp; admin: string };

  beforeAll(async () => {
    refusing = await shapesApp({});
    ignoring = await shapesApp({ ITEMS_UNKNOWN_FIELDS: 'ignore' });
  });
  afterAll(async () => {
    await refusing?.t.close();
    await ignoring?.t.close();
  });

  it('refuses a field the collection lacks by default, naming it, and writes nothing of a nested create', async () => {
    const { t, admin } = refusing;
    const flat = await t.request.post('/items/shapes').set(auth(admin)).send({ name: 'circle', radius: 3 }).expect(400);
    expect(flat.body.errors[0]).toEqual({ message: 'Field "radius" doesn\'t exist in collection "shapes".', extensions: { code: 'INVALID_PAYLOAD', field: 'radius' } });
    const nested = await t.request.post('/items/drawings').set(auth(admin)).send({ name: 'd', shapes: [{ name: 'circle', radius: 3 }] }).expect(400);
    expect(nested.body.errors[0].extensions).toEqual({ code: 'INVALID_PAYLOAD', field: 'radius' });
    await t.request.post('/items/drawings').set(auth(admin)).send({ name: 'sentinel' }).expect(200);
    expect((await t.request.get('/items/drawings?fields=name').set(auth(admin)).expect(200)).body.data).toEqual([{ name: 'sentinel' }]);
  });

  it('with ignore, drops it on creates, nested creates, updates and batch updates, and stores the rest', async () => {
    const { t, admin } = ignoring;
    const circle = (await t.request.post('/items/shapes?fields=id,name,sides').set(auth(admin)).send({ name: 'circle', radius: 3 }).expect(200)).body.data;
    expect(circle).toEqual({ id: circle.id, name: 'circle', sides: null });
    const many = (await t.request.post('/items/shapes?fields=name').set(auth(admin)).send([{ name: 'a', radius: 1 }, { name: 'b', colour: 'red' }]).expect(200)).body.data;
    expect(many).toEqual([{ name: 'a' }, { name: 'b' }]);
    const drawing = (await t.request.post('/items/drawings?fields=name,shapes.name').set(auth(admin)).send({ name: 'd', scale: 2, shapes: [{ name: 'inner', radius: 1 }] }).expect(200)).body.data;
    expect(drawing).toEqual({ name: 'd', shapes: [{ name: 'inner' }] });
    expect((await t.request.patch(`/items/shapes/${circle.id}?fields=sides`).set(auth(admin)).send({ sides: 0, radius: 4 }).expect(200)).body.data).toEqual({ sides: 0 });
    await t.request.patch('/items/shapes').set(auth(admin)).send([{ id: circle.id, name: 'round', radius: 5 }]).expect(200);
    expect((await t.request.get(`/items/shapes/${circle.id}`).set(auth(admin)).expect(200)).body.data).toEqual({ id: circle.id, name: 'round', sides: 0, drawing: null });
  });

  it('with ignore, lets a filter hook use the field first, and announces only what was stored', async () => {
    const { t, admin } = ignoring;
    const announced: unknown[] = [];
    const offFilter = t.context.events.onFilter('shapes.items.create', async (payload) => ('corners' in payload ? { ...payload, sides: payload.corners } : payload));
    const offAction = t.context.events.onAction('shapes.items.create', (meta) => void announced.push(meta.payload));
    try {
      const triangle = (await t.request.post('/items/shapes?fields=name,sides').set(auth(admin)).send({ name: 'triangle', corners: 3 }).expect(200)).body.data;
      expect(triangle).toEqual({ name: 'triangle', sides: 3 });
      await t.context.events.idle();
      expect(announced).toEqual([{ name: 'triangle', sides: 3 }]);
    } finally {
      offFilter();
      offAction();
    }
  });

  it('with ignore, drops it before a role\'s field list is checked; a listed-out field the collection has is still refused', async () => {
    const { t, admin } = ignoring;
    const role = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Namer', app_access: false }).expect(200)).body.data.id as string;
    await t.request.post('/permissions').set(auth(admin)).send({ role, collection: 'shapes', action: 'create', fields: ['name'] }).expect(200);
    await t.request.post('/users').set(auth(admin)).send({ email: 'namer@example.com', password: 'unknown-fields-password-1', role, status: 'active' }).expect(200);
    const namer = await t.login('namer@example.com', 'unknown-fields-password-1');
    await t.request.post('/items/shapes').set(auth(namer)).send({ name: 'square', radius: 2 }).expect(204);
    const refused = await t.request.post('/items/shapes').set(auth(namer)).send({ name: 'square', sides: 4 }).expect(403);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', field: 'sides' });
  });
});
