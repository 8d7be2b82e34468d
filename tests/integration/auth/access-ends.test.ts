import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endUserAccess } from '../../../server/auth/access-stamps.ts';
import { recordStatements } from '../../../server/cache/statement-recorder.ts';
import { UsersService } from '../../../server/services/users-service.ts';
import { eventually } from '../../helpers/eventually.ts';
import { startSecondInstance, type SecondInstance } from '../../helpers/second-instance.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PASSWORD = 'access-ends-pass-1';

type Headers = { Authorization: string };
const bearer = (token: string): Headers => ({ Authorization: `Bearer ${token}` });

describe('ending access: old tokens stop at once on this instance and soon on every other', () => {
  let t: TestApp;
  let second: SecondInstance;
  let admin: Headers;
  let editors: string;
  let writers: string;
  let counter = 0;

  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL });
    second = await startSecondInstance(t);
    admin = bearer(await t.login());
    editors = (await t.request.post('/roles').set(admin).send({ name: 'Editors', app_access: true }).expect(200)).body.data.id;
    writers = (await t.request.post('/roles').set(admin).send({ name: 'Writers', app_access: true }).expect(200)).body.data.id;
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  /** A signed-in editor whose token both instances have already accepted (so each knows the user's stamp). */
  async function signedInEditor(role = editors) {
    const email = `editor-${++counter}@example.com`;
    const id = (await t.request.post('/users').set(admin).send({ email, password: PASSWORD, role, status: 'active' }).expect(200)).body.data.id as string;
    const login = await t.request.post('/auth/login').send({ email, password: PASSWORD }).expect(200);
    const { access_token: accessToken, refresh_token: refreshToken } = login.body.data as { access_token: string; refresh_token: string };
    await t.request.get('/users/me').set(bearer(accessToken)).expect(200);
    await second.request.get('/users/me').set(bearer(accessToken)).expect(200);
    return { id, email, accessToken, refreshToken };
  }

  async function sessionsOf(user: string): Promise<number> {
    const row = await t.system.db.selectFrom('tessera_sessions').select((eb) => eb.fn.countAll<string>().as('count')).where('user', '=', user).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** The old token is refused here at once, and on the second instance once Redis has carried the news; its session is gone. */
  async function expectCutOff(user: { id: string; accessToken: string; refreshToken: string }) {
    const here = await t.request.get('/users/me').set(bearer(user.accessToken));
    expect(here.status).toBe(401);
    expect(here.body.errors[0].extensions.code).toBe('INVALID_TOKEN');
    await eventually(async () => {
      expect((await second.request.get('/users/me').set(bearer(user.accessToken))).status).toBe(401);
    });
    expect((await t.request.post('/auth/refresh').send({ refresh_token: user.refreshToken })).status).toBe(401);
    expect(await sessionsOf(user.id)).toBe(0);
  }

  it('an administrator suspends the user', async () => {
    const user = await signedInEditor();
    await t.request.patch(`/users/${user.id}`).set(admin).send({ status: 'suspended' }).expect(200);
    await expectCutOff(user);
  });

  it('an administrator gives the user another role; a new sign-in works on both instances', async () => {
    const user = await signedInEditor();
    await t.request.patch(`/users/${user.id}`).set(admin).send({ role: writers }).expect(200);
    await expectCutOff(user);
    const fresh = bearer((await t.request.post('/auth/login').send({ email: user.email, password: PASSWORD }).expect(200)).body.data.access_token);
    expect((await t.request.get('/users/me?fields=role').set(fresh).expect(200)).body.data.role).toBe(writers);
    await second.request.get('/users/me').set(fresh).expect(200);
  });

  it('saving the same role again signs nobody out', async () => {
    const user = await signedInEditor();
    await t.request.patch(`/users/${user.id}`).set(admin).send({ role: editors, first_name: 'Same' }).expect(200);
    await t.request.get('/users/me').set(bearer(user.accessToken)).expect(200);
    expect(await sessionsOf(user.id)).toBe(1);
  });

  it('the user changes their own password; the new one signs in', async () => {
    const user = await signedInEditor();
    await t.request.patch('/users/me').set(bearer(user.accessToken)).send({ password: 'a-brand-new-pass-2' }).expect(200);
    await expectCutOff(user);
    await t.request.post('/auth/login').send({ email: user.email, password: 'a-brand-new-pass-2' }).expect(200);
  });

  it('an administrator sets a new password', async () => {
    const user = await signedInEditor();
    await t.request.patch(`/users/${user.id}`).set(admin).send({ password: 'set-by-admin-pass-3' }).expect(200);
    await expectCutOff(user);
  });

  it('an operator sets a new password with the CLI (`tessera users passwd`)', async () => {
    const user = await signedInEditor();
    await new UsersService(t.system).setPassword(user.email, 'set-by-cli-pass-4');
    await expectCutOff(user);
  });

  it('failed sign-ins reach auth_login_attempts and suspend the user', async () => {
    const user = await signedInEditor();
    await t.request.patch('/settings').set(admin).send({ auth_login_attempts: 2 }).expect(200);
    try {
      for (let attempt = 0; attempt < 2; attempt++) await t.request.post('/auth/login').send({ email: user.email, password: 'not-the-password' }).expect(401);
    } finally {
      await t.request.patch('/settings').set(admin).send({ auth_login_attempts: null }).expect(200);
    }
    await expectCutOff(user);
  });

  it('an administrator deletes the user', async () => {
    const user = await signedInEditor();
    await t.request.delete(`/users/${user.id}`).set(admin).expect(204);
    expect((await t.request.get('/users/me').set(bearer(user.accessToken))).status).toBe(401);
    await eventually(async () => {
      expect((await second.request.get('/users/me').set(bearer(user.accessToken))).status).toBe(401);
    });
  });

  it('the role loses app access (tokens carry it), or is deleted', async () => {
    const reviewers = (await t.request.post('/roles').set(admin).send({ name: 'Reviewers', app_access: true }).expect(200)).body.data.id;
    const user = await signedInEditor(reviewers);
    await t.request.patch(`/roles/${reviewers}`).set(admin).send({ app_access: true, description: 'unchanged flags' }).expect(200);
    await t.request.get('/users/me').set(bearer(user.accessToken)).expect(200);
    await t.request.patch(`/roles/${reviewers}`).set(admin).send({ app_access: false }).expect(200);
    await expectCutOff(user);

    const other = await signedInEditor(reviewers);
    await t.request.delete(`/roles/${reviewers}`).set(admin).expect(204);
    await expectCutOff(other);
  });

  it('checks a known user\'s token without a single database statement', async () => {
    // Users without a role: a role's ip_access/enforce_tfa check has its own 5-second cache, not measured here.
    const roleless = async (email: string) => {
      await t.request.post('/users').set(admin).send({ email, password: PASSWORD, status: 'active' }).expect(200);
      return bearer(await t.login(email, PASSWORD));
    };
    const known = await roleless('known@example.com');
    await t.request.get('/server/ping').set(known).expect(200);
    const unknown = await roleless('unknown@example.com');

    // Every statement the middleware in front of the response cache sends (accountability among them).
    const statements = new Set<string>();
    t.app.middleware.unshift((_ctx, next) => recordStatements(statements, next));
    try {
      const request = supertest(t.app.callback());
      for (let index = 0; index < 50; index++) await request.get('/server/ping').set(known).expect(200);
      expect([...statements]).toEqual([]);
      // The recorder does see the one read of a user this instance has not met yet.
      await request.get('/server/ping').set(unknown).expect(200);
      expect([...statements].filter((text) => text.includes('access_stamps'))).toHaveLength(1);
    } finally {
      t.app.middleware.shift();
    }
  });
});

describe('ending access while Redis is away', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 1: this instance never hears other instances.
    t = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:1' });
  });
  afterAll(() => t.close());

  it('reads a known user\'s stamp again, so a change made elsewhere reaches it within seconds', async () => {
    const admin = bearer(await t.login());
    const email = 'deaf@example.com';
    const id = (await t.request.post('/users').set(admin).send({ email, password: PASSWORD, status: 'active' }).expect(200)).body.data.id as string;
    const token = bearer(await t.login(email, PASSWORD));
    await t.request.get('/users/me').set(token).expect(200);
    // What another instance's suspension leaves in the database; its announcement never arrives here.
    await t.system.db.updateTable('tessera_users').set({ status: 'suspended' }).where('id', '=', id).execute();
    await endUserAccess(t.system.db, [id]);
    await eventually(async () => {
      expect((await t.request.get('/users/me').set(token)).status).toBe(401);
    }, 20_000);
  });
});
