import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecondInstance, type SecondInstance } from '../../helpers/second-instance.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PASSWORD = 'Right-pass-1';

/** Creates an active user (optionally in a role) through the API; returns the id. */
async function createUser(t: TestApp, auth: Record<string, string>, email: string, role?: string): Promise<string> {
  const response = await t.request.post('/users').set(auth).send({ email, password: PASSWORD, status: 'active', role }).expect(200);
  return response.body.data.id;
}

async function statusOf(t: TestApp, id: string): Promise<string> {
  return (await t.system.db.selectFrom('tessera_users').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
}

function code(response: { body: { errors: Array<{ extensions: { code: string } }> } }): string {
  return response.body.errors[0]!.extensions.code;
}

describe('sign-in hardening on one instance', () => {
  let t: TestApp;
  let admin: { Authorization: string };

  beforeAll(async () => {
    // The default hash cost (TEST_ENV lowers it): the timing test below compares one real verification with none.
    t = await createTestApp({ HASH_MEMORY_COST: '65536', HASH_TIME_COST: '3', HASH_PARALLELISM: '4' });
    admin = { Authorization: `Bearer ${await t.login()}` };
  });
  afterAll(() => t.close());

  it('suspends a user at settings.auth_login_attempts consecutive failures; a success in between resets the count', async () => {
    await t.request.patch('/settings').set(admin).send({ auth_login_attempts: 3 }).expect(200);
    const id = await createUser(t, admin, 'attempts@example.com');
    const wrong = () => t.request.post('/auth/login').send({ email: 'attempts@example.com', password: 'wrong-pass' });

    expect(code(await wrong().expect(401))).toBe('INVALID_CREDENTIALS');
    expect(code(await wrong().expect(401))).toBe('INVALID_CREDENTIALS');
    await t.login('attempts@example.com', PASSWORD);
    await wrong().expect(401);
    await wrong().expect(401);
    expect(await statusOf(t, id)).toBe('active');
    // The third consecutive failure suspends; its answer is still INVALID_CREDENTIALS (nothing leaks).
    expect(code(await wrong().expect(401))).toBe('INVALID_CREDENTIALS');
    expect(await statusOf(t, id)).toBe('suspended');
    expect(code(await t.request.post('/auth/login').send({ email: 'attempts@example.com', password: PASSWORD }).expect(401))).toBe('USER_SUSPENDED');
    // A suspended user with a wrong password learns nothing about the status.
    expect(code(await wrong().expect(401))).toBe('INVALID_CREDENTIALS');

    await t.request.patch(`/users/${id}`).set(admin).send({ status: 'active' }).expect(200);
    await t.login('attempts@example.com', PASSWORD);
  });

  it('counts nothing when auth_login_attempts is empty (unlimited)', async () => {
    await t.request.patch('/settings').set(admin).send({ auth_login_attempts: null }).expect(200);
    const id = await createUser(t, admin, 'unlimited@example.com');
    for (let attempt = 0; attempt < 6; attempt += 1) await t.request.post('/auth/login').send({ email: 'unlimited@example.com', password: 'wrong-pass' }).expect(401);
    expect(await statusOf(t, id)).toBe('active');
    await t.login('unlimited@example.com', PASSWORD);
  });

  it('signs in only active users, with the status named only after a correct password', async () => {
    for (const status of ['draft', 'invited', 'suspended', 'archived']) {
      const id = await createUser(t, admin, `${status}@example.com`);
      await t.request.patch(`/users/${id}`).set(admin).send({ status }).expect(200);
      const right = await t.request.post('/auth/login').send({ email: `${status}@example.com`, password: PASSWORD }).expect(401);
      expect(code(right)).toBe('USER_SUSPENDED');
      expect(right.body.errors[0].message).toBe(`User is ${status} and cannot sign in.`);
      expect(code(await t.request.post('/auth/login').send({ email: `${status}@example.com`, password: 'wrong-pass' }).expect(401))).toBe('INVALID_CREDENTIALS');
    }
  });

  it('refuses sign-in from an IP outside the role\'s ip_access with 401 INVALID_IP, after the password check', async () => {
    const elsewhere = (await t.request.post('/roles').set(admin).send({ name: 'Office only', ip_access: ['10.1.2.3', '192.168.0.0/16'] }).expect(200)).body.data.id;
    const local = (await t.request.post('/roles').set(admin).send({ name: 'Local', ip_access: ['127.0.0.1', '::1'] }).expect(200)).body.data.id;
    await createUser(t, admin, 'office@example.com', elsewhere);
    await createUser(t, admin, 'local@example.com', local);

    const refused = await t.request.post('/auth/login').send({ email: 'office@example.com', password: PASSWORD }).expect(401);
    expect(refused.body.errors[0]).toEqual({ message: "Your IP address isn't allowed to use this role.", extensions: { code: 'INVALID_IP' } });
    expect(code(await t.request.post('/auth/login').send({ email: 'office@example.com', password: 'wrong-pass' }).expect(401))).toBe('INVALID_CREDENTIALS');
    await t.login('local@example.com', PASSWORD);
  });

  it('refuses requests with a token once the role no longer allows the caller\'s IP', async () => {
    const role = (await t.request.post('/roles').set(admin).send({ name: 'Moving' }).expect(200)).body.data.id;
    await createUser(t, admin, 'moving@example.com', role);
    const token = await t.login('moving@example.com', PASSWORD);
    await t.system.db.updateTable('tessera_roles').set({ ip_access: '10.9.9.9' }).where('id', '=', role).execute();
    const refused = await t.request.get('/users/me').set({ Authorization: `Bearer ${token}` }).expect(401);
    expect(code(refused)).toBe('INVALID_IP');
    expect(code(await t.request.get(`/users/me?access_token=${token}`).expect(401))).toBe('INVALID_IP');
  });

  it('keeps an unknown e-mail as costly as a wrong password (one argon2 verification)', async () => {
    await createUser(t, admin, 'timing@example.com');
    const time = async (email: string) => {
      const started = performance.now();
      await t.request.post('/auth/login').send({ email, password: 'wrong-pass' }).expect(401);
      return performance.now() - started;
    };
    await time('nobody@example.com');
    const unknown: number[] = [];
    const known: number[] = [];
    for (let round = 0; round < 6; round += 1) {
      unknown.push(await time('nobody@example.com'));
      known.push(await time('timing@example.com'));
    }
    // Both are dominated by one argon2 verification (tens of ms); without the dummy check the unknown e-mail would answer in ~1 ms.
    // A busy machine only ever adds time, so the fastest of several rounds is the closest to each path's own cost,
    // and a factor of 0.3 still separates "one argon2 verification" from "none" by an order of magnitude.
    expect(Math.min(...unknown)).toBeGreaterThan(Math.min(...known) * 0.3);
  });
});

describe('login attempts shared by two instances through Redis', () => {
  let first: TestApp;
  let instance: SecondInstance;
  let second: SecondInstance['request'];

  beforeAll(async () => {
    first = await createTestApp({ REDIS_URL });
    instance = await startSecondInstance(first);
    second = instance.request;
  });
  afterAll(async () => {
    await instance.close();
    await first.close();
  });

  it('suspends after failures spread over both instances', async () => {
    const admin = { Authorization: `Bearer ${await first.login()}` };
    await first.request.patch('/settings').set(admin).send({ auth_login_attempts: 4 }).expect(200);
    const id = await createUser(first, admin, `shared-${Date.now()}@example.com`);
    const email = (await first.system.db.selectFrom('tessera_users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email;
    const wrong = { email, password: 'wrong-pass' };
    await first.request.post('/auth/login').send(wrong).expect(401);
    await second.post('/auth/login').send(wrong).expect(401);
    await first.request.post('/auth/login').send(wrong).expect(401);
    expect(await statusOf(first, id)).toBe('active');
    await second.post('/auth/login').send(wrong).expect(401);
    expect(await statusOf(first, id)).toBe('suspended');
    expect(code(await second.post('/auth/login').send({ email, password: PASSWORD }).expect(401))).toBe('USER_SUSPENDED');
  });
});
