import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ENDPOINTS } from '../../../server/controllers/system-collections-controller.ts';
import { UsersService } from '../../../server/services/users-service.ts';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';

describe('system collection endpoints', () => {
  let t: TestApp;
  let admin: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
  });
  afterAll(() => t.close());

  it.each(SYSTEM_ENDPOINTS.filter((name) => name !== 'settings'))('GET /%s lists with the query language', async (name) => {
    const response = await t.request.get(`/${name}?limit=5&meta=total_count`).set(auth()).expect(200);
    expect(Array.isArray(response.body.data)).toBe(true);
    expect(typeof response.body.meta.total_count).toBe('number');
  });

  it('creates a user with a hashed password that is never returned', async () => {
    const roles = await t.request.get('/roles?filter[name][_eq]=Administrator&fields=id').set(auth()).expect(200);
    const created = await t.request.post('/users?fields=id,email,password,role.name').set(auth()).send({ email: 'writer@example.com', password: 'writer-pass-1', role: roles.body.data[0].id }).expect(200);
    expect(created.body.data).toMatchObject({ email: 'writer@example.com', password: '**********', role: { name: 'Administrator' } });
    const stored = await t.system.db.selectFrom('tessera_users').select('password').where('email', '=', 'writer@example.com').executeTakeFirstOrThrow();
    expect(await argon2.verify(stored.password, 'writer-pass-1')).toBe(true);
    expect(JSON.stringify((await t.request.get('/users').set(auth())).body)).not.toContain('$argon2');
    await t.request.post('/auth/login').send({ email: 'writer@example.com', password: 'writer-pass-1' }).expect(200);
  });

  it('keeps /users/me working beside /users/:id', async () => {
    const me = await t.request.get('/users/me').set(auth()).expect(200);
    expect(me.body.data.email).toBe(TEST_ADMIN.email);
    const byId = await t.request.get(`/users/${me.body.data.id}?fields=email`).set(auth()).expect(200);
    expect(byId.body.data).toEqual({ email: TEST_ADMIN.email });
  });

  it('reads and updates the settings singleton; enumerations are checked and named', async () => {
    const settings = await t.request.get('/settings').set(auth()).expect(200);
    expect(settings.body.data).toMatchObject({ project_name: 'Tessera', default_language: 'en-US', storage_asset_transform: 'all' });
    const updated = await t.request.patch('/settings').set(auth()).send({ project_name: 'Renamed', auth_password_policy: 'strong' }).expect(200);
    expect(updated.body.data).toMatchObject({ project_name: 'Renamed', auth_password_policy: 'strong' });
    const bad = await t.request.patch('/settings').set(auth()).send({ storage_asset_transform: 'partial' }).expect(400);
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'storage_asset_transform', allowed: ['all', 'none', 'presets'] });
    expect(bad.body.errors[0].message).toBe('Value for field "storage_asset_transform" is not allowed; use one of: all, none, presets.');
    const rows = await t.system.db.selectFrom('tessera_settings').select('id').execute();
    expect(rows).toHaveLength(1);
  });

  it('records activity for system writes, readable at /activity', async () => {
    await t.request.post('/translations').set(auth()).send({ key: 'greeting', language: 'pt-BR', value: 'Olá' }).expect(200);
    const activity = await t.request.get('/activity?filter[collection][_eq]=tessera_translations&fields=action,collection').set(auth()).expect(200);
    expect(activity.body.data).toEqual([{ action: 'create', collection: 'tessera_translations' }]);
    const missing = await t.request.post('/translations').set(auth()).send({ key: 'x', language: 'en-US' }).expect(400);
    expect(missing.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'value' });
  });

  it('is admin-only until role permissions land', async () => {
    await new UsersService(t.system).createOne({ email: 'reader@example.com', password: 'reader-pass-1' });
    const reader = await t.login('reader@example.com', 'reader-pass-1');
    for (const name of ['users', 'roles', 'settings', 'permissions']) {
      await t.request.get(`/${name}`).set({ Authorization: `Bearer ${reader}` }).expect(403);
      await t.request.get(`/${name}`).expect(403);
    }
  });
});
