import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicAccountability, type Accountability } from '../../../server/auth/accountability.ts';
import { ItemsService } from '../../../server/services/items/items-service.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** ItemsService.readableKeys / isReadable: the one answer to "may this caller read item X" (issue 30 §1). */
describe('ItemsService.readableKeys', () => {
  let t: TestApp;
  let reader: Accountability;
  let open: number[];
  let closed: number;
  let mine: string;
  let theirs: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  const service = async (collection: string, accountability: Accountability) => new ItemsService(collection, { ...t.context.servicesContext(accountability), schema: await t.context.schema.get() });

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await t.login();
    const send = (path: string, body: object) => t.request.post(path).set(auth(admin)).send(body).expect(200);
    await send('/collections', { collection: 'docs', fields: [{ field: 'title', type: 'string' }, { field: 'status', type: 'string' }] });
    await send('/collections', {
      collection: 'cards',
      fields: [{ field: 'id', type: 'uuid', schema: { is_primary_key: true } }, { field: 'owner', type: 'uuid' }],
    });
    const docs = (await send('/items/docs', [{ title: 'a', status: 'open' }, { title: 'b', status: 'closed' }, { title: 'c', status: 'open' }])).body.data as Array<{ id: number }>;
    open = [docs[0]!.id, docs[2]!.id];
    closed = docs[1]!.id;
    const role = (await send('/roles', { name: 'Reader', app_access: false })).body.data.id as string;
    // The field list leaves out the key: readability is about the item, not its fields.
    await send('/permissions', { role, collection: 'docs', action: 'read', fields: ['title'], permissions: { status: { _eq: 'open' } } });
    await send('/permissions', { role, collection: 'cards', action: 'read', fields: '*', permissions: { owner: { _eq: '$CURRENT_USER' } } });
    const user = (await send('/users', { email: 'reader@example.com', password: 'reader-password-1', role, status: 'active' })).body.data.id as string;
    reader = { ...publicAccountability({ ip: null, userAgent: null, origin: null }), user, role };
    mine = (await send('/items/cards', { owner: user })).body.data.id;
    theirs = (await send('/items/cards', { owner: null })).body.data.id;
  });
  afterAll(() => t.close());

  it('keeps the keys of items within the read rule, in order, once, leaving out missing items and impossible keys', async () => {
    const docs = await service('docs', reader);
    expect(await docs.readableKeys([open[1]!, closed, 999_999, 'abc', String(open[0]), open[1]!, -1.5 as number])).toEqual([open[1], open[0]]);
    expect(await docs.readableKeys([])).toEqual([]);
    expect(await docs.isReadable(open[0]!)).toBe(true);
    expect(await docs.isReadable(closed)).toBe(false);
    expect(await docs.isReadable('not a key')).toBe(false);
  });

  it('takes any number of keys in one statement', async () => {
    const many = [...Array.from({ length: 70_000 }, (_, index) => 1_000_000 + index), open[0]!];
    expect(await (await service('docs', reader)).readableKeys(many)).toEqual([open[0]]);
  });

  it('applies $CURRENT_USER rules and compares uuids whatever their case', async () => {
    const cards = await service('cards', reader);
    expect(await cards.readableKeys([theirs, mine.toUpperCase(), 'not-a-uuid'])).toEqual([mine.toUpperCase()]);
  });

  it('answers every existing item to administrators and none to a caller without read permission', async () => {
    const system = await service('docs', { ...reader, admin: true });
    expect(await system.readableKeys([closed, 999_999, open[0]!])).toEqual([closed, open[0]]);
    const anonymous = await service('docs', publicAccountability({ ip: null, userAgent: null, origin: null }));
    expect(await anonymous.readableKeys([...open, closed])).toEqual([]);
    expect(await anonymous.isReadable(open[0]!)).toBe(false);
  });
});
