import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** GET /activity/comment and /activity/comment/mentionable (docs/editorial.md "An item's discussion"). */
describe("an item's discussion", () => {
  let t: TestApp;
  let admin: string;
  const users: Record<'alice' | 'bob' | 'carol', { id: string; token: string }> = {} as never;
  let articleId: number;
  let hiddenId: number;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const list = (token: string, item: number | string, collection = 'articles') => t.request.get(`/activity/comment?collection=${collection}&item=${item}`).set(auth(token));

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    await t.request.post('/collections').set(auth(admin)).send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }, { field: 'status', type: 'string' }] }).expect(200);
    const editorRole = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Editor', app_access: true }).expect(200)).body.data.id;
    const outsiderRole = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Outsider', app_access: true }).expect(200)).body.data.id;
    await t.request.post('/permissions').set(auth(admin)).send({ role: editorRole, collection: 'articles', action: 'read', fields: '*', permissions: { status: { _neq: 'hidden' } } }).expect(200);
    articleId = (await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Hello', status: 'draft' }).expect(200)).body.data.id;
    hiddenId = (await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Secret', status: 'hidden' }).expect(200)).body.data.id;
    const roles = { alice: editorRole, bob: editorRole, carol: outsiderRole };
    for (const [name, role] of Object.entries(roles) as [keyof typeof users, string][]) {
      const email = `${name}@example.com`;
      const id = (await t.request.post('/users').set(auth(admin)).send({ email, password: `${name}-password-1`, role, status: 'active', first_name: name[0]!.toUpperCase() + name.slice(1), last_name: 'Doe' }).expect(200)).body.data.id;
      users[name] = { id, token: await t.login(email, `${name}-password-1`) };
    }
    await t.request.post('/activity/comment').set(auth(users.alice.token)).send({ collection: 'articles', item: articleId, comment: `Looks good, @${users.bob.id}?` }).expect(200);
    await t.request.post('/activity/comment').set(auth(users.bob.token)).send({ collection: 'articles', item: articleId, comment: 'Agreed.' }).expect(200);
    await t.request.post('/activity/comment').set(auth(admin)).send({ collection: 'articles', item: hiddenId, comment: 'Not for editors.' }).expect(200);
  });
  afterAll(() => t.close());

  it('lists every comment of an item the caller can read, with author names and mentioned names, and no e-mail', async () => {
    // Alice reads Bob's comment too, although SPEC §6 lets her read only her own activity rows.
    await t.request.get(`/activity?filter[action][_eq]=comment&filter[user][_eq]=${users.bob.id}`).set(auth(users.alice.token)).expect(200).then((response) => expect(response.body.data).toEqual([]));
    const { data } = (await list(users.alice.token, articleId).expect(200)).body;
    expect(data.comments.map((entry: { comment: string; user: { id: string; name: string } }) => [entry.user.name, entry.comment])).toEqual([
      ['Alice Doe', `Looks good, @${users.bob.id}?`],
      ['Bob Doe', 'Agreed.'],
    ]);
    expect(data.mentions).toEqual({ [users.bob.id]: 'Bob Doe' });
    expect(JSON.stringify(data)).not.toContain('@example.com');
  });

  it('is 403 for an item the caller cannot read, one that does not exist, and the public; 400 without collection or item', async () => {
    await list(users.alice.token, hiddenId).expect(403);
    await list(users.carol.token, articleId).expect(403);
    await list(users.alice.token, 99999).expect(403);
    await list(users.alice.token, articleId, 'tessera_users').expect(403);
    await t.request.get(`/activity/comment?collection=articles&item=${articleId}`).expect(403);
    const missing = await t.request.get('/activity/comment?collection=articles').set(auth(users.alice.token)).expect(400);
    expect(missing.body.errors[0].extensions.field).toBe('item');
    expect((await list(admin, hiddenId).expect(200)).body.data.comments).toHaveLength(1);
  });

  it('offers active users to mention by name (not oneself), only on a readable item', async () => {
    const found = (await t.request.get(`/activity/comment/mentionable?collection=articles&item=${articleId}&search=bo`).set(auth(users.alice.token)).expect(200)).body.data;
    expect(found).toEqual([{ id: users.bob.id, name: 'Bob Doe', avatar: null }]);
    const everyone = (await t.request.get(`/activity/comment/mentionable?collection=articles&item=${articleId}`).set(auth(users.alice.token)).expect(200)).body.data;
    expect(everyone.map((user: { name: string }) => user.name)).not.toContain('Alice Doe');
    expect(everyone.map((user: { name: string }) => user.name)).toContain('Carol Doe');
    await t.request.get(`/activity/comment/mentionable?collection=articles&item=${hiddenId}`).set(auth(users.alice.token)).expect(403);
    // LIKE wildcards in the search are taken literally.
    expect((await t.request.get(`/activity/comment/mentionable?collection=articles&item=${articleId}&search=%25`).set(auth(users.alice.token)).expect(200)).body.data).toEqual([]);
  });
});
