import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSecondInstance, createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';

/**
 * docs/config.md: HASH_MEMORY_COST, HASH_TIME_COST and HASH_PARALLELISM set argon2id's cost for every password
 * hash Tessera makes (users, a collection's hash field, /utils/hash/generate); a hash keeps its own cost, so
 * passwords hashed before a change still sign in.
 */
let t: TestApp;
let auth: { Authorization: string };
const COST = { HASH_MEMORY_COST: '2048', HASH_TIME_COST: '2', HASH_PARALLELISM: '1' };
const PREFIX = '$argon2id$v=19$m=2048,p=1,t=2$';

beforeAll(async () => {
  t = await createTestApp(COST);
  auth = { Authorization: `Bearer ${await t.login()}` };
});
afterAll(() => t?.close());

const storedPassword = async (email: string) => (await t.system.db.selectFrom('tessera_users').select('password').where('email', '=', email).executeTakeFirstOrThrow()).password as string;

it('hashes the first administrator, a new user and a changed password at the configured cost', async () => {
  expect((await storedPassword(TEST_ADMIN.email)).startsWith(PREFIX)).toBe(true);
  await t.request.post('/users').set(auth).send({ email: 'cost@example.com', password: 'cost-password-1' }).expect(200);
  expect((await storedPassword('cost@example.com')).startsWith(PREFIX)).toBe(true);
  await t.request.patch('/users/me').set(auth).send({ password: 'admin-password-2' }).expect(200);
  expect((await storedPassword(TEST_ADMIN.email)).startsWith(PREFIX)).toBe(true);
  await t.request.patch('/users/me').set({ Authorization: `Bearer ${await t.login(TEST_ADMIN.email, 'admin-password-2')}` }).send({ password: TEST_ADMIN.password }).expect(200);
  // A changed password ends the user's tokens.
  auth = { Authorization: `Bearer ${await t.login()}` };
});

it('hashes a collection field of the hash kind and /utils/hash/generate at that cost', async () => {
  await t.request.post('/collections').set(auth).send({ collection: 'vaults', fields: [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } }, { field: 'pin', type: 'hash', meta: { special: ['hash'] } }] }).expect(200);
  const created = await t.request.post('/items/vaults').set(auth).send({ pin: 'plain-pin-1' }).expect(200);
  const row = await t.system.db.selectFrom('vaults').select('pin').where('id', '=', created.body.data.id).executeTakeFirstOrThrow();
  expect((row.pin as string).startsWith(PREFIX)).toBe(true);
  const generated = await t.request.post('/utils/hash/generate').set(auth).send({ string: 'anything' }).expect(200);
  expect((generated.body.data as string).startsWith(PREFIX)).toBe(true);
});

it('signs in with a password hashed at another cost, and hashes it again at the new cost without ending a session', async () => {
  const before = await t.login('cost@example.com', 'cost-password-1');
  const other = await createSecondInstance(t, { HASH_MEMORY_COST: '4096', HASH_TIME_COST: '3', HASH_PARALLELISM: '2' });
  try {
    await other.request.post('/auth/login').send({ email: 'cost@example.com', password: 'wrong-password-1' }).expect(401);
    expect((await storedPassword('cost@example.com')).startsWith(PREFIX)).toBe(true);
    await other.request.post('/auth/login').send({ email: 'cost@example.com', password: 'cost-password-1' }).expect(200);
    expect((await storedPassword('cost@example.com')).startsWith('$argon2id$v=19$m=4096,p=2,t=3$')).toBe(true);
    await other.request.post('/auth/login').send({ email: 'cost@example.com', password: 'cost-password-1' }).expect(200);
    // The same password: a token issued before the new hash still works.
    await other.request.get('/users/me').set({ Authorization: `Bearer ${before}` }).expect(200);
  } finally {
    await other.close();
  }
});
