import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

// Issue 31, item 10: /comments as Directus 11 serves it, beside /activity/comment, with the same comments
// and the same rules (read: whoever may read the item; edit and delete: one's own, admins any).
describe('/comments in Directus 11\'s shape (issue 31)', () => {
  let t: TestApp;
  let admin: string;
  let alice: { id: string; token: string };
  let carol: { id: string; token: string };
  let articleId: number;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const ofArticle = () => ({ 'filter[collection][_eq]': 'articles', 'filter[item][_eq]': String(articleId) });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    await t.request.post('/collections').set(auth(admin)).send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }] }).expect(200);
    const editor = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Editor', app_access: true }).expect(200)).body.data.id;
    const outsider = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Outsider', app_access: true }).expect(200)).body.data.id;
    await t.request.post('/permissions').set(auth(admin)).send({ role: editor, collection: 'articles', action: 'read', fields: '*' }).expect(200);
    articleId = (await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Hello' }).expect(200)).body.data.id;
    const user = async (name: string, role: string) => {
      const id = (await t.request.post('/users').set(auth(admin)).send({ email: `${name}@example.com`, password: `${name}-password-1`, role, status: 'active', first_name: name, last_name: 'Tester' }).expect(200)).body.data.id;
      return { id, token: await t.login(`${name}@example.com`, `${name}-password-1`) };
    };
    alice = await user('alice', editor);
    carol = await user('carol', outsider);
  });
  afterAll(() => t.close());

  it('creates, reads, edits and deletes a comment with Directus 11\'s fields', async () => {
    const created = await t.request.post('/comments').set(auth(alice.token)).send({ collection: 'articles', item: articleId, comment: 'First!' }).expect(200);
    expect(created.body.data).toEqual({ id: expect.any(Number), collection: 'articles', item: String(articleId), comment: 'First!', date_created: expect.any(String), date_updated: null, user_created: alice.id, user_updated: null });
    const id = created.body.data.id;
    // The same comment as /activity/comment knows it.
    expect((await t.request.get('/activity/comment').query({ collection: 'articles', item: articleId }).set(auth(alice.token)).expect(200)).body.data.comments.map((entry: { id: number }) => entry.id)).toEqual([id]);

    const one = await t.request.get(`/comments/${id}`).query({ fields: 'id,comment,user_created.first_name,user_created.last_name' }).set(auth(alice.token)).expect(200);
    expect(one.body.data).toEqual({ id, comment: 'First!', user_created: { id: alice.id, first_name: 'alice', last_name: 'Tester', avatar: null } });

    const edited = await t.request.patch(`/comments/${id}`).set(auth(alice.token)).send({ comment: 'First, edited' }).expect(200);
    expect(edited.body.data.comment).toBe('First, edited');
    await t.request.post('/comments').set(auth(admin)).send({ collection: 'articles', item: String(articleId), comment: 'Second' }).expect(200);

    const listed = await t.request.get('/comments').query({ ...ofArticle(), sort: '-date_created', fields: 'comment' }).set(auth(alice.token)).expect(200);
    expect(listed.body.data).toEqual([{ comment: 'Second' }, { comment: 'First, edited' }]);
    const limited = await t.request.get('/comments').query({ filter: JSON.stringify({ _and: [{ collection: { _eq: 'articles' } }, { item: { _eq: articleId } }] }), limit: 1, fields: 'comment' }).set(auth(alice.token)).expect(200);
    expect(limited.body.data).toEqual([{ comment: 'First, edited' }]);
    const searched = await t.request.search('/comments').set(auth(alice.token)).send({ query: { filter: { collection: { _eq: 'articles' }, item: { _eq: String(articleId) } }, fields: ['id'] } }).expect(200);
    expect(searched.body.data).toHaveLength(2);

    await t.request.delete(`/comments/${id}`).set(auth(alice.token)).expect(204);
    await t.request.get(`/comments/${id}`).set(auth(alice.token)).expect(403);
  });

  it('applies the item\'s read rule and the authorship rule, and refuses reads that do not name the item', async () => {
    const id = (await t.request.post('/comments').set(auth(alice.token)).send({ collection: 'articles', item: articleId, comment: 'Mine' }).expect(200)).body.data.id;
    await t.request.get(`/comments/${id}`).set(auth(carol.token)).expect(403);
    await t.request.get('/comments').query(ofArticle()).set(auth(carol.token)).expect(403);
    await t.request.post('/comments').set(auth(carol.token)).send({ collection: 'articles', item: articleId, comment: 'Sneaky' }).expect(403);
    await t.request.get(`/comments/${id}`).expect(403);
    const otherAuthor = (await t.request.post('/comments').set(auth(admin)).send({ collection: 'articles', item: articleId, comment: 'Admin' }).expect(200)).body.data.id;
    await t.request.patch(`/comments/${otherAuthor}`).set(auth(alice.token)).send({ comment: 'Hijack' }).expect(403);
    await t.request.delete(`/comments/${otherAuthor}`).set(auth(alice.token)).expect(403);

    for (const [query, field] of [[{}, 'filter'], [{ 'filter[comment][_contains]': 'x' }, 'filter.comment'], [{ ...ofArticle(), sort: 'comment' }, 'sort'], [{ ...ofArticle(), fields: 'secret' }, 'fields']] as const) {
      const refused = await t.request.get('/comments').query(query).set(auth(admin)).expect(400);
      expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_QUERY', field });
    }
    const missing = await t.request.post('/comments').set(auth(admin)).send({ collection: 'articles', item: articleId }).expect(400);
    expect(missing.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'comment' });
  });
});
