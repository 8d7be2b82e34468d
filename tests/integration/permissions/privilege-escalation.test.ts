import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';

/**
 * A user manager (full create/read/update on users and roles, no admin access) must not reach admin
 * rights, whatever the payload's shape or the write path (security issue items 1 and 2).
 */
describe('privilege escalation through payload shapes and write paths', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let managerId: string;
  let adminId: string;
  let adminRole: string;
  let editorRole: string;
  let managerRole: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const roleOf = async (email: string) => (await t.system.db.selectFrom('tessera_users').select('role').where('email', '=', email).executeTakeFirst())?.role ?? null;
  const adminRow = () => t.system.db.selectFrom('tessera_users').select(['email', 'password', 'status', 'role', 'token']).where('id', '=', adminId).executeTakeFirstOrThrow();
  const importUsers = (token: string, rows: object[]) =>
    t.request.post('/utils/import/tessera_users').set(auth(token)).attach('file', Buffer.from(JSON.stringify(rows)), { filename: 'users.json', contentType: 'application/json' });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    adminId = (await t.request.get('/users/me?fields=id').set(auth(admin)).expect(200)).body.data.id;
    adminRole = (await t.request.get('/roles?filter[admin_access][_eq]=true&fields=id').set(auth(admin)).expect(200)).body.data[0].id;
    editorRole = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Editor', app_access: true }).expect(200)).body.data.id;
    managerRole = (await t.request.post('/roles').set(auth(admin)).send({ name: 'User manager', app_access: true }).expect(200)).body.data.id;
    await t.request.post('/collections').set(auth(admin)).send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }] }).expect(200);
    await t.request.post('/fields/articles').set(auth(admin)).send({ field: 'author', type: 'uuid' }).expect(200);
    await t.request.post('/relations').set(auth(admin)).send({ collection: 'articles', field: 'author', related_collection: 'tessera_users' }).expect(200);
    for (const collection of ['tessera_users', 'tessera_roles', 'articles']) {
      for (const action of ['create', 'read', 'update', 'delete']) {
        await t.request.post('/permissions').set(auth(admin)).send({ role: managerRole, collection, action, fields: '*' }).expect(200);
      }
    }
    managerId = (await t.request.post('/users').set(auth(admin)).send({ email: 'manager@example.com', password: 'manager-password-1', role: managerRole, status: 'active' }).expect(200)).body.data.id;
    manager = await t.login('manager@example.com', 'manager-password-1');
  });
  afterAll(() => t.close());

  it('refuses an admin role sent as an object, on every user write path (item 1)', async () => {
    const attempts = [
      () => t.request.patch(`/users/${managerId}`).set(auth(manager)).send({ role: { id: adminRole } }),
      () => t.request.patch('/users/me').set(auth(manager)).send({ role: { id: adminRole } }),
      () => t.request.post('/users').set(auth(manager)).send({ email: 'boss1@example.com', role: { id: adminRole } }),
      () => t.request.post('/users').set(auth(manager)).send([{ email: 'boss2@example.com', role: editorRole }, { email: 'boss3@example.com', role: { id: adminRole } }]),
      () => t.request.patch('/users').set(auth(manager)).send([{ id: managerId, role: { id: adminRole } }]),
      () => t.request.patch('/users').set(auth(manager)).send({ keys: [managerId], data: { role: { id: adminRole } } }),
      () => t.request.patch('/users').set(auth(manager)).send({ query: { filter: { id: { _eq: managerId } } }, data: { role: { id: adminRole } } }),
      () => t.request.post('/items/articles').set(auth(manager)).send({ title: 'x', author: { id: managerId, role: { id: adminRole } } }),
      () => t.request.post('/items/articles').set(auth(manager)).send({ title: 'x', author: { email: 'boss4@example.com', role: adminRole } }),
      () => importUsers(manager, [{ email: 'boss5@example.com', role: adminRole }]),
      () => t.request.post('/users/invite').set(auth(manager)).send({ email: 'boss7@example.com', role: adminRole }),
    ];
    for (const attempt of attempts) {
      const response = await attempt();
      expect(response.status, JSON.stringify(response.body)).toBe(403);
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', field: 'role' });
    }
    expect(await roleOf('manager@example.com')).toBe(managerRole);
    for (const email of ['boss1@example.com', 'boss2@example.com', 'boss3@example.com', 'boss4@example.com', 'boss5@example.com', 'boss7@example.com']) expect(await roleOf(email)).toBeNull();
    // The same shapes with an ordinary role still work.
    await t.request.post('/users').set(auth(manager)).send({ email: 'ed@example.com', role: { id: editorRole } }).expect(200);
    expect(await roleOf('ed@example.com')).toBe(editorRole);
  });

  it('refuses admin access on roles through nested creates and updates (item 1)', async () => {
    const nestedCreate = await t.request.post('/users').set(auth(manager)).send({ email: 'boss6@example.com', role: { name: 'Sneaky', admin_access: true } }).expect(403);
    expect(nestedCreate.body.errors[0].extensions.field).toBe('admin_access');
    const nestedUpdate = await t.request.patch(`/users/${managerId}`).set(auth(manager)).send({ role: { id: managerRole, admin_access: true } }).expect(403);
    expect(nestedUpdate.body.errors[0].extensions.field).toBe('admin_access');
    await t.request.patch('/roles').set(auth(manager)).send({ keys: [managerRole], data: { admin_access: true } }).expect(403);
    const flags = await t.system.db.selectFrom('tessera_roles').select('admin_access').where('id', '=', managerRole).executeTakeFirstOrThrow();
    expect(flags.admin_access).toBe(false);
    expect(await t.system.db.selectFrom('tessera_roles').select('id').where('name', '=', 'Sneaky').executeTakeFirst()).toBeUndefined();
    // Permissions are rows of tessera_permissions: without a permission on that collection, no grant of one's own.
    await t.request.post('/permissions').set(auth(manager)).send({ role: managerRole, collection: 'tessera_settings', action: 'update', fields: '*' }).expect(403);
    // `permissions` is not a field of roles: like Directus, a system collection ignores it (docs/api.md), so no grant.
    await t.request.post('/roles').set(auth(manager)).send({ name: 'With grants', permissions: [{ collection: 'tessera_settings', action: 'update' }] }).expect((response) => expect(response.status).not.toBe(500));
    const grants = await t.system.db.selectFrom('tessera_permissions').select('id').where('role', '=', managerRole).where('collection', '=', 'tessera_settings').execute();
    expect(grants).toEqual([]);
  });

  it("refuses a non-admin changing an administrator's credentials, e-mail, status or role on every path (item 2)", async () => {
    const before = await adminRow();
    const attempts: Array<[string, () => Promise<{ status: number; body: any }>]> = [
      ['password', () => t.request.patch(`/users/${adminId}`).set(auth(manager)).send({ password: 'taken-over-password-1' })],
      ['email', () => t.request.patch(`/users/${adminId}`).set(auth(manager)).send({ email: 'attacker@example.com' })],
      ['status', () => t.request.patch(`/users/${adminId}`).set(auth(manager)).send({ status: 'suspended' })],
      ['token', () => t.request.patch(`/users/${adminId}`).set(auth(manager)).send({ token: 'a-static-token-the-attacker-knows-1234567890' })],
      ['tfa_secret', () => t.request.patch(`/users/${adminId}`).set(auth(manager)).send({ tfa_secret: null })],
      ['role', () => t.request.patch(`/users/${adminId}`).set(auth(manager)).send({ role: editorRole })],
      ['password', () => t.request.patch('/users').set(auth(manager)).send([{ id: adminId, password: 'taken-over-password-1' }])],
      ['password', () => t.request.patch('/users').set(auth(manager)).send({ keys: [managerId, adminId], data: { password: 'taken-over-password-1' } })],
      ['email', () => t.request.patch('/users').set(auth(manager)).send({ query: { filter: { email: { _eq: TEST_ADMIN.email } } }, data: { email: 'attacker@example.com' } })],
      ['password', () => t.request.post('/items/articles').set(auth(manager)).send({ title: 'x', author: { id: adminId, password: 'taken-over-password-1' } })],
    ];
    for (const [field, attempt] of attempts) {
      const response = await attempt();
      expect(response.status, `${field}: ${JSON.stringify(response.body)}`).toBe(403);
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', field });
    }
    // Through the roles' o2m: linking a user into the admin role, or an administrator out of it.
    await t.request.patch(`/roles/${adminRole}`).set(auth(manager)).send({ users: [adminId, managerId] }).expect(403);
    await t.request.patch(`/roles/${managerRole}`).set(auth(manager)).send({ users: [managerId, adminId] }).expect(403);
    expect(await roleOf('manager@example.com')).toBe(managerRole);
    await t.request.delete(`/users/${adminId}`).set(auth(manager)).expect(403);
    await t.request.delete(`/roles/${adminRole}`).set(auth(manager)).expect(403);
    await t.request.patch(`/roles/${adminRole}`).set(auth(manager)).send({ admin_access: false }).expect(403);
    expect(await adminRow()).toEqual(before);
    await t.request.post('/auth/login').send(TEST_ADMIN).expect(200);
    // Profile fields of an administrator stay writable under the manager's permissions; other users' credentials too.
    await t.request.patch(`/users/${adminId}`).set(auth(manager)).send({ title: 'Boss' }).expect(200);
    // A whole form sent back with the administrator's unchanged e-mail, status and role is no change.
    await t.request.patch(`/users/${adminId}`).set(auth(manager)).send({ title: 'Big boss', email: before.email, status: before.status, role: before.role, password: '**********' }).expect(200);
    const ed = (await t.request.get('/users?filter[email][_eq]=ed@example.com&fields=id').set(auth(manager)).expect(200)).body.data[0].id;
    await t.request.patch(`/users/${ed}`).set(auth(manager)).send({ password: 'editor-password-1', status: 'active' }).expect(200);
    // Administrators still manage administrators.
    await t.request.patch(`/users/${adminId}`).set(auth(admin)).send({ first_name: 'Ada', status: 'active' }).expect(200);
  });

  it('checks permission validation rules on the key an m2o object links, not on the object (item 1)', async () => {
    // A manager of editors: may create users, but not in the manager role.
    const limitedRole = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Editor manager', app_access: true }).expect(200)).body.data.id;
    await t.request.post('/permissions').set(auth(admin)).send({ role: limitedRole, collection: 'tessera_users', action: 'create', fields: '*', validation: { role: { _nin: [managerRole] } } }).expect(200);
    await t.request.post('/users').set(auth(admin)).send({ email: 'limited@example.com', password: 'limited-password-1', role: limitedRole, status: 'active' }).expect(200);
    const limited = await t.login('limited@example.com', 'limited-password-1');
    for (const role of [managerRole, { id: managerRole }, { id: managerRole, description: 'x' }]) {
      const response = await t.request.post('/users').set(auth(limited)).send({ email: 'sneaky@example.com', role }).expect(400);
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'FAILED_VALIDATION', field: 'role' });
    }
    expect(await roleOf('sneaky@example.com')).toBeNull();
    await t.request.post('/users').set(auth(limited)).send({ email: 'editor2@example.com', role: { id: editorRole } }).expect(204);
    expect(await roleOf('editor2@example.com')).toBe(editorRole);
  });
});
