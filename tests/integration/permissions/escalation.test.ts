import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../server/auth/passwords.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

describe('privilege escalation', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let adminRole: string;
  let editorRole: string;
  let managerRole: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    adminRole = (await t.request.get('/roles?filter[admin_access][_eq]=true&fields=id').set(auth(admin)).expect(200)).body.data[0].id;
    editorRole = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Editor', app_access: true }).expect(200)).body.data.id;
    managerRole = (await t.request.post('/roles').set(auth(admin)).send({ name: 'User manager', app_access: true }).expect(200)).body.data.id;
    for (const action of ['create', 'read', 'update']) {
      await t.request.post('/permissions').set(auth(admin)).send({ role: managerRole, collection: 'tessera_users', action, fields: '*' }).expect(200);
      await t.request.post('/permissions').set(auth(admin)).send({ role: managerRole, collection: 'tessera_roles', action, fields: '*' }).expect(200);
    }
    await t.request.post('/users').set(auth(admin)).send({ email: 'manager@example.com', password: 'manager-password-1', role: managerRole, status: 'active' }).expect(200);
    manager = await t.login('manager@example.com', 'manager-password-1');
  });
  afterAll(() => t.close());

  it('lets a user manager create editors but not administrators', async () => {
    await t.request.post('/users').set(auth(manager)).send({ email: 'ed@example.com', role: editorRole }).expect(200);
    const refused = await t.request.post('/users').set(auth(manager)).send({ email: 'boss@example.com', role: adminRole }).expect(403);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', field: 'role' });
    const count = await t.system.db.selectFrom('tessera_users').select((eb) => eb.fn.countAll<string>().as('n')).where('email', '=', 'boss@example.com').executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('refuses moving anyone (itself included) into an admin role', async () => {
    const me = (await t.request.get('/users/me?fields=id').set(auth(manager)).expect(200)).body.data.id;
    expect((await t.request.patch(`/users/${me}`).set(auth(manager)).send({ role: adminRole }).expect(403)).body.errors[0].extensions.field).toBe('role');
    const role = await t.system.db.selectFrom('tessera_users').select('role').where('id', '=', me).executeTakeFirstOrThrow();
    expect(role.role).toBe(managerRole);
  });

  it('refuses giving a role admin access, and creating an admin role', async () => {
    expect((await t.request.patch(`/roles/${managerRole}`).set(auth(manager)).send({ admin_access: true }).expect(403)).body.errors[0].extensions.field).toBe('admin_access');
    await t.request.post('/roles').set(auth(manager)).send({ name: 'Sneaky', admin_access: true }).expect(403);
    await t.request.patch(`/roles/${editorRole}`).set(auth(manager)).send({ description: 'Writes articles' }).expect(200);
    const flags = await t.system.db.selectFrom('tessera_roles').select('admin_access').where('id', '=', managerRole).executeTakeFirstOrThrow();
    expect(flags.admin_access).toBe(false);
  });

  it('hashes a pre-hashed password sent by a non-admin, so a hash cannot slip a short password past the policy', async () => {
    await t.request.patch('/settings').set(auth(admin)).send({ auth_password_policy: 'weak' }).expect(200);
    const preHashed = await hashPassword('short', t.context.config.auth.hash);
    await t.request.patch('/users/me').set(auth(manager)).send({ password: preHashed }).expect(200);
    const stored = await t.system.db.selectFrom('tessera_users').select('password').where('email', '=', 'manager@example.com').executeTakeFirstOrThrow();
    expect(stored.password).not.toBe(preHashed);
    await t.request.post('/auth/login').send({ email: 'manager@example.com', password: 'short' }).expect(401);
    await t.request.post('/auth/login').send({ email: 'manager@example.com', password: preHashed }).expect(200);
    // Administrators may import hashes as they are (migrating users from another system).
    await t.request.post('/users').set(auth(admin)).send({ email: 'imported@example.com', password: preHashed, status: 'active' }).expect(200);
    await t.request.post('/auth/login').send({ email: 'imported@example.com', password: 'short' }).expect(200);
  });
});
