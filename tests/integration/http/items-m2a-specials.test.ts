import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

describe('/items: m2a writes, hash and conceal, uuid keys', () => {
  let t: TestApp;
  let admin: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    const collections: Array<[string, object[]]> = [
      ['pages', [{ field: 'title', type: 'string' }]],
      ['block_text', [{ field: 'content', type: 'text' }]],
      ['block_image', [{ field: 'url', type: 'string' }]],
      ['pages_blocks', [{ field: 'pages_id', type: 'integer' }, { field: 'item', type: 'string' }, { field: 'collection', type: 'string' }]],
      [
        'members',
        [
          { field: 'id', type: 'uuid', schema: { is_primary_key: true }, meta: { special: ['uuid'] } },
          { field: 'name', type: 'string' },
          { field: 'pin', type: 'hash', meta: { special: ['hash', 'conceal'] } },
        ],
      ],
    ];
    for (const [collection, fields] of collections) await t.request.post('/collections').set(auth()).send({ collection, fields }).expect(200);
    const relate = (body: object) => t.request.post('/relations').set(auth()).send(body).expect(200);
    await relate({ collection: 'pages_blocks', field: 'item', related_collection: null, meta: { one_collection_field: 'collection', one_allowed_collections: ['block_text', 'block_image'], junction_field: 'pages_id' } });
    await relate({ collection: 'pages_blocks', field: 'pages_id', related_collection: 'pages', meta: { one_field: 'blocks', junction_field: 'item' }, schema: { on_delete: 'CASCADE' } });
  });
  afterAll(() => t.close());

  it('creates m2a blocks of different collections in one request', async () => {
    const created = await t.request
      .post('/items/pages?fields=title,blocks.collection,blocks.item:block_text.content,blocks.item:block_image.url')
      .set(auth())
      .send({
        title: 'Home',
        blocks: [
          { collection: 'block_text', item: { content: 'Welcome' } },
          { collection: 'block_image', item: { url: 'https://example.com/a.png' } },
        ],
      })
      .expect(200);
    expect(created.body.data.title).toBe('Home');
    expect(created.body.data.blocks).toEqual([
      { collection: 'block_text', item: { content: 'Welcome' } },
      { collection: 'block_image', item: { url: 'https://example.com/a.png' } },
    ]);
  });

  it('refuses an m2a item of a collection the relation does not allow', async () => {
    const response = await t.request.post('/items/pages').set(auth()).send({ title: 'Bad', blocks: [{ collection: 'members', item: { name: 'x' } }] }).expect(400);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'collection' });
    const pages = await t.request.get('/items/pages?filter[title][_eq]=Bad').set(auth()).expect(200);
    expect(pages.body.data).toEqual([]);
  });

  it('refuses an m2a link by key, or a junction row, naming a collection the relation does not allow', async () => {
    const member = await t.request.post('/items/members').set(auth()).send({ name: 'linked' }).expect(200);
    const byKey = await t.request.post('/items/pages').set(auth()).send({ title: 'By key', blocks: [{ collection: 'members', item: member.body.data.id }] }).expect(400);
    expect(byKey.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'collection' });
    expect((await t.request.get('/items/pages?filter[title][_eq]=By key').set(auth()).expect(200)).body.data).toEqual([]);
    const direct = await t.request.post('/items/pages_blocks').set(auth()).send({ collection: 'members', item: String(member.body.data.id) }).expect(400);
    expect(direct.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'collection' });
    const text = await t.request.post('/items/block_text').set(auth()).send({ content: 'ok' }).expect(200);
    const row = await t.request.post('/items/pages_blocks').set(auth()).send({ collection: 'block_text', item: String(text.body.data.id) }).expect(200);
    await t.request.patch(`/items/pages_blocks/${row.body.data.id}`).set(auth()).send({ collection: 'members' }).expect(400);
    await t.request.patch(`/items/pages_blocks/${row.body.data.id}`).set(auth()).send({ collection: 'block_image' }).expect(200);
    await t.request.delete(`/items/members/${member.body.data.id}`).set(auth()).expect(204);
  });

  it('generates uuid keys, stores hash fields as argon2id and never returns them', async () => {
    const created = await t.request.post('/items/members').set(auth()).send({ name: 'Kim', pin: '1234-5678' }).expect(200);
    expect(created.body.data.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created.body.data.pin).toBe('**********');
    const stored = await t.system.db.selectFrom('members').select('pin').executeTakeFirstOrThrow();
    expect(await argon2.verify(stored.pin, '1234-5678')).toBe(true);
    await t.request.patch(`/items/members/${created.body.data.id}`).set(auth()).send({ name: 'Kim L.', pin: '**********' }).expect(200);
    const unchanged = await t.system.db.selectFrom('members').select('pin').executeTakeFirstOrThrow();
    expect(unchanged.pin).toBe(stored.pin);
    await t.request.get('/items/members/not-a-uuid').set(auth()).expect(403);
    // Comparing a hash is a bad query (400, as in Directus), not a forbidden one.
    const filter = await t.request.get('/items/members?filter[pin][_eq]=1234-5678').set(auth());
    expect(filter.status).toBe(400);
  });
});
