import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * A share session reads the shared item and what it reaches through its relations, nothing else, even
 * when the share's role may read much more (security issue item 6).
 */
describe('share session scope', () => {
  let t: TestApp;
  let admin: string;
  let token: string;
  let authorId: string;
  const auth = (value: string) => ({ Authorization: `Bearer ${value}` });
  const ids = (response: { body: { data: Array<{ id: unknown }> } }) => response.body.data.map((item) => item.id).sort();

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    const send = (path: string, body: object) => t.request.post(path).set(auth(admin)).send(body).expect(200);
    await send('/collections', { collection: 'articles', fields: [{ field: 'title', type: 'string' }] });
    await send('/collections', { collection: 'comments', fields: [{ field: 'body', type: 'string' }, { field: 'article', type: 'integer' }] });
    await send('/collections', { collection: 'secrets', fields: [{ field: 'value', type: 'string' }] });
    await send('/fields/articles', { field: 'author', type: 'uuid' });
    await send('/relations', { collection: 'articles', field: 'author', related_collection: 'tessera_users' });
    await send('/fields/articles', { field: 'comments', type: 'alias', meta: { special: ['o2m'] } });
    await send('/relations', { collection: 'comments', field: 'article', related_collection: 'articles', meta: { one_field: 'comments' } });
    await send('/collections', { collection: 'tags', fields: [{ field: 'label', type: 'string' }] });
    await send('/collections', { collection: 'articles_tags', fields: [{ field: 'articles_id', type: 'integer' }, { field: 'tags_id', type: 'integer' }] });
    await send('/relations', { collection: 'articles_tags', field: 'articles_id', related_collection: 'articles', meta: { one_field: 'tags', junction_field: 'tags_id' } });
    await send('/relations', { collection: 'articles_tags', field: 'tags_id', related_collection: 'tags', meta: { junction_field: 'articles_id' } });
    authorId = (await send('/users', { email: 'author@example.com', password: 'author-password-1', status: 'active' })).body.data.id;
    await send('/users', { email: 'other@example.com', password: 'other-password-1', status: 'active' });
    await send('/items/articles', [{ title: 'Shared', author: authorId }, { title: 'Private' }]);
    await send('/items/comments', [{ body: 'on shared', article: 1 }, { body: 'on private', article: 2 }]);
    await send('/items/secrets', { value: 'top secret' });
    await send('/items/tags', [{ label: 'shared tag' }, { label: 'private tag' }]);
    await send('/items/articles_tags', [{ articles_id: 1, tags_id: 1 }, { articles_id: 2, tags_id: 2 }]);

    // The share's role reads everything of these collections: the share alone must narrow it.
    const role = (await send('/roles', { name: 'Reader', app_access: false })).body.data.id;
    for (const collection of ['articles', 'comments', 'secrets', 'tags', 'articles_tags', 'tessera_users', 'tessera_roles']) {
      await send('/permissions', { role, collection, action: 'read', fields: collection === 'tessera_users' ? 'id,email,first_name' : '*' });
    }
    const share = (await send('/shares', { collection: 'articles', item: '1', role })).body.data.id;
    token = (await t.request.post('/shares/auth').send({ share }).expect(200)).body.data.access_token;
  });
  afterAll(() => t.close());

  it('reads the shared item and the items it reaches, nested or at the top level', async () => {
    expect(ids(await t.request.get('/items/articles').set(auth(token)).expect(200))).toEqual([1]);
    const nested = await t.request.get('/items/articles/1?fields=title,author.email,comments.body').set(auth(token)).expect(200);
    expect(nested.body.data).toEqual({ title: 'Shared', author: { email: 'author@example.com' }, comments: [{ body: 'on shared' }] });
    expect((await t.request.get('/items/comments?fields=body').set(auth(token)).expect(200)).body.data).toEqual([{ body: 'on shared' }]);
    expect(ids(await t.request.get('/users').set(auth(token)).expect(200))).toEqual([authorId]);
    const tagged = await t.request.get('/items/articles/1?fields=tags.tags_id.label').set(auth(token)).expect(200);
    expect(tagged.body.data).toEqual({ tags: [{ tags_id: { label: 'shared tag' } }] });
    expect((await t.request.get('/items/tags?fields=label').set(auth(token)).expect(200)).body.data).toEqual([{ label: 'shared tag' }]);
  });

  it('sees nothing else its role could read', async () => {
    await t.request.get('/items/articles/2').set(auth(token)).expect(403);
    await t.request.get('/items/secrets').set(auth(token)).expect(403);
    await t.request.get('/roles').set(auth(token)).expect(403);
    await t.request.get('/users?filter[email][_eq]=other@example.com').set(auth(token)).expect(200).then((response) => expect(response.body.data).toEqual([]));
    await t.request.get('/items/comments?filter[article][_eq]=2').set(auth(token)).expect(200).then((response) => expect(response.body.data).toEqual([]));
    const mine = (await t.request.get('/permissions/me').set(auth(token)).expect(200)).body.data.map((row: { collection: string }) => row.collection).sort();
    expect(mine).toEqual(['articles', 'articles_tags', 'comments', 'tags', 'tessera_users']);
    await t.request.patch('/items/comments/1').set(auth(token)).send({ body: 'x' }).expect(403);
  });
});
