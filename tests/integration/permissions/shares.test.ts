import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

describe('shares', () => {
  let t: TestApp;
  let admin: string;
  let viewerRole: string;
  let adminRole: string;
  let sharer: string;
  let sharerRole: string;
  let sharerId: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const db = () => t.system.db;

  async function share(body: object, token = admin): Promise<string> {
    const response = await t.request.post('/shares').set(auth(token)).send(body);
    expect(response.body.errors).toBeUndefined();
    return response.body.data.id as string;
  }

  async function enter(id: string, password?: string): Promise<string> {
    const response = await t.request.post('/shares/auth').send({ share: id, ...(password === undefined ? {} : { password }) }).expect(200);
    return response.body.data.access_token as string;
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    await t.request
      .post('/collections')
      .set(auth(admin))
      .send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }, { field: 'status', type: 'string' }, { field: 'owner_note', type: 'string' }] })
      .expect(200);
    await t.request
      .post('/items/articles')
      .set(auth(admin))
      .send([
        { title: 'Shared', status: 'published', owner_note: 'n1' },
        { title: 'Other', status: 'published', owner_note: 'n2' },
        { title: 'Draft', status: 'draft', owner_note: 'n3' },
      ])
      .expect(200);
    viewerRole = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Viewer', app_access: false }).expect(200)).body.data.id;
    adminRole = (await t.request.get('/roles?filter[admin_access][_eq]=true&fields=id').set(auth(admin)).expect(200)).body.data[0].id;
    await t.request.post('/permissions').set(auth(admin)).send({ role: viewerRole, collection: 'articles', action: 'read', fields: 'id,title,status' }).expect(200);

    // A non-admin who may share published articles under its own role.
    sharerRole = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Sharer', app_access: true }).expect(200)).body.data.id;
    for (const permission of [
      { action: 'read', collection: 'articles', fields: '*' },
      { action: 'share', collection: 'articles', fields: '*', permissions: { status: { _eq: 'published' } } },
      { action: 'create', collection: 'tessera_shares', fields: '*' },
    ]) {
      await t.request.post('/permissions').set(auth(admin)).send({ role: sharerRole, ...permission }).expect(200);
    }
    sharerId = (await t.request.post('/users').set(auth(admin)).send({ email: 'sharer@example.com', password: 'sharer-password-1', role: sharerRole, status: 'active' }).expect(200)).body.data.id;
    sharer = await t.login('sharer@example.com', 'sharer-password-1');
  });
  afterAll(() => t.close());

  it('refuses a share under an admin role, naming the field', async () => {
    const response = await t.request.post('/shares').set(auth(admin)).send({ collection: 'articles', item: '1', role: adminRole }).expect(400);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'role' });
  });

  it('a passwordless share reads exactly the shared item with its role’s fields, and counts each use', async () => {
    const id = await share({ name: 'Public link', collection: 'articles', item: '1', role: viewerRole, password: '', max_uses: '', date_end: '' });
    const info = await t.request.get(`/shares/info/${id}`).expect(200);
    expect(info.body.data).toMatchObject({ id, collection: 'articles', item: '1', password: false, times_used: 0, max_uses: null, date_end: null });
    const token = await enter(id);
    const list = await t.request.get('/items/articles').set(auth(token)).expect(200);
    expect(list.body.data).toEqual([{ id: 1, title: 'Shared', status: 'published' }]);
    await t.request.get('/items/articles/2').set(auth(token)).expect(403);
    await t.request.get('/items/articles?fields=owner_note').set(auth(token)).expect(403);
    await t.request.get('/items/articles?filter[owner_note][_eq]=n2').set(auth(token)).expect(403);
    await t.request.patch('/items/articles/1').set(auth(token)).send({ title: 'Changed' }).expect(403);
    await t.request.delete('/items/articles/1').set(auth(token)).expect(403);
    await t.request.get('/users').set(auth(token)).expect(403);
    const row = await db().selectFrom('tessera_shares').select(['times_used', 'password']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ times_used: 1, password: null });
    const session = await db().selectFrom('tessera_sessions').select(['user', 'share']).where('share', '=', id).executeTakeFirstOrThrow();
    expect(session).toEqual({ user: null, share: id });
  });

  it('a password share stores an argon2 hash, never returns it, and refuses a wrong password', async () => {
    const id = await share({ collection: 'articles', item: '2', role: viewerRole, password: 'open sesame' });
    const stored = await db().selectFrom('tessera_shares').select('password').where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.password).toMatch(/^\$argon2id\$/);
    const read = await t.request.get(`/shares/${id}?fields=password`).set(auth(admin)).expect(200);
    expect(read.body.data.password).not.toContain('argon2');
    expect((await t.request.get(`/shares/info/${id}`).expect(200)).body.data.password).toBe(true);
    const wrong = await t.request.post('/shares/auth').send({ share: id, password: 'guess' }).expect(401);
    expect(wrong.body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');
    await t.request.post('/shares/auth').send({ share: id }).expect(401);
    const token = await enter(id, 'open sesame');
    expect((await t.request.get('/items/articles').set(auth(token)).expect(200)).body.data.map((item: { id: number }) => item.id)).toEqual([2]);
  });

  it('refuses used-up, expired, not-yet-active, unknown and deleted shares', async () => {
    const once = await share({ collection: 'articles', item: '1', role: viewerRole, max_uses: 1 });
    await enter(once);
    expect((await t.request.post('/shares/auth').send({ share: once }).expect(403)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    await t.request.get(`/shares/info/${once}`).expect(403);

    const expired = await share({ collection: 'articles', item: '1', role: viewerRole, date_end: '2020-01-01T00:00:00Z' });
    await t.request.post('/shares/auth').send({ share: expired }).expect(403);
    const future = await share({ collection: 'articles', item: '1', role: viewerRole, date_start: '2999-01-01T00:00:00Z' });
    await t.request.post('/shares/auth').send({ share: future }).expect(403);
    await t.request.post('/shares/auth').send({ share: '00000000-0000-4000-8000-000000000000' }).expect(403);
    await t.request.post('/shares/auth').send({ share: "1' or '1'='1" }).expect(403);
    const missing = await t.request.post('/shares/auth').send({}).expect(400);
    expect(missing.body.errors[0].extensions.field).toBe('share');

    const gone = await share({ collection: 'articles', item: '1', role: viewerRole });
    const token = await enter(gone);
    await t.request.delete(`/shares/${gone}`).set(auth(admin)).expect(204);
    await t.request.get('/items/articles').set(auth(token)).expect(403);
  });

  it('the last use cannot be taken twice by concurrent requests', async () => {
    const id = await share({ collection: 'articles', item: '1', role: viewerRole, max_uses: 2 });
    const results = await Promise.all(Array.from({ length: 5 }, () => t.request.post('/shares/auth').send({ share: id })));
    expect(results.filter((response) => response.status === 200)).toHaveLength(2);
    expect(results.filter((response) => response.status === 403)).toHaveLength(3);
    expect((await db().selectFrom('tessera_shares').select('times_used').where('id', '=', id).executeTakeFirstOrThrow()).times_used).toBe(2);
  });

  it('non-admins share only items their share permission reaches, under their own role', async () => {
    const own = await t.request.post('/shares').set(auth(sharer)).send({ collection: 'articles', item: '2' }).expect(200);
    const stored = await db().selectFrom('tessera_shares').select(['role', 'user_created']).where('id', '=', own.body.data.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ role: sharerRole, user_created: sharerId });
    const draft = await t.request.post('/shares').set(auth(sharer)).send({ collection: 'articles', item: '3' }).expect(403);
    expect(draft.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', field: 'item' });
    const otherRole = await t.request.post('/shares').set(auth(sharer)).send({ collection: 'articles', item: '2', role: viewerRole }).expect(403);
    expect(otherRole.body.errors[0].extensions.field).toBe('role');
    await t.request.post('/shares').set(auth(sharer)).send({ collection: 'tessera_users', item: '1' }).expect(403);
    const count = await sql<{ count: string }>`select count(*) from tessera_shares s join tessera_users u on u.id = s.user_created where u.email = 'sharer@example.com'`.execute(db());
    expect(Number(count.rows[0]!.count)).toBe(1);
  });
});
