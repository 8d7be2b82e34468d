import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsersService } from '../../../server/services/users-service.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const PASSWORD = 'Email-user-pass1';

describe('e-mails are normalised wherever users are written, one account per address', () => {
  let t: TestApp;
  let admin: { Authorization: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = { Authorization: `Bearer ${await t.login()}` };
  });
  afterAll(() => t.close());

  const emailOf = async (id: string) => (await t.system.db.selectFrom('tessera_users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email;
  const count = async (email: string) =>
    Number((await t.system.db.selectFrom('tessera_users').select((eb) => eb.fn.countAll<string>().as('n')).where((eb) => eb(eb.fn('lower', ['email']), '=', email)).executeTakeFirstOrThrow()).n);
  function expectError(response: { status: number; body: { errors: Array<{ extensions: Record<string, unknown> }> } }, code: string): void {
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.errors[0]!.extensions).toMatchObject({ code, field: 'email' });
  }

  it('POST /users stores " Ed@Example.com " as ed@example.com, who signs in with any spelling of it', async () => {
    const created = await t.request.post('/users').set(admin).send({ email: ' Ed@Example.com ', password: PASSWORD, status: 'active' }).expect(200);
    expect(created.body.data.email).toBe('ed@example.com');
    expect(await emailOf(created.body.data.id)).toBe('ed@example.com');
    await t.login('ed@example.com', PASSWORD);
    await t.login('  ED@example.COM', PASSWORD);
  });

  it('a second account for the same address in another case is 400 RECORD_NOT_UNIQUE naming email', async () => {
    await t.request.post('/users').set(admin).send({ email: 'ann@example.com', password: PASSWORD }).expect(200);
    expectError(await t.request.post('/users').set(admin).send({ email: 'ANN@Example.com', password: PASSWORD }), 'RECORD_NOT_UNIQUE');
    expectError(await t.request.post('/users').set(admin).send([{ email: 'pair@example.com' }, { email: 'Pair@Example.com ' }]), 'RECORD_NOT_UNIQUE');
    expect(await count('pair@example.com')).toBe(0);
    // The CLI's path refuses it too.
    await expect(new UsersService(t.system).createOne({ email: 'Ann@EXAMPLE.com', password: PASSWORD })).rejects.toMatchObject({ code: 'RECORD_NOT_UNIQUE' });
    expect(await count('ann@example.com')).toBe(1);
  });

  it('PATCH /users/:id, /users (batch) and /users/me normalise too', async () => {
    const role = (await t.request.post('/roles').set(admin).send({ name: 'App user', app_access: true }).expect(200)).body.data.id;
    const id = (await t.request.post('/users').set(admin).send({ email: 'bob@example.com', password: PASSWORD, status: 'active', role }).expect(200)).body.data.id;
    await t.request.patch(`/users/${id}`).set(admin).send({ email: ' Robert@Example.COM' }).expect(200);
    expect(await emailOf(id)).toBe('robert@example.com');
    await t.request.patch('/users').set(admin).send({ keys: [id], data: { email: 'Bobby@Example.com' } }).expect(200);
    expect(await emailOf(id)).toBe('bobby@example.com');
    const own = { Authorization: `Bearer ${await t.login('bobby@example.com', PASSWORD)}` };
    await t.request.patch('/users/me').set(own).send({ email: 'BOB.SMITH@example.com ' }).expect(200);
    expect(await emailOf(id)).toBe('bob.smith@example.com');
    expectError(await t.request.patch(`/users/${id}`).set(admin).send({ email: 'ED@EXAMPLE.COM' }), 'RECORD_NOT_UNIQUE');
  });

  it('refuses addresses that are not e-mails (400 naming email), drops what follows a comma in the domain', async () => {
    for (const email of ['not-an-email', '   ', 'a@', '@example.com', 'two@@example.com', 'a b@example.com', { $ne: null }]) {
      expectError(await t.request.post('/users').set(admin).send({ email, password: PASSWORD }), 'INVALID_PAYLOAD');
    }
    expectError(await t.request.post('/users').set(admin).send({ email: 'x'.repeat(130) + '@example.com', password: PASSWORD }), 'VALUE_TOO_LONG');
    const id = (await t.request.post('/users').set(admin).send({ email: 'Comma@Example.com,evil.example', password: PASSWORD }).expect(200)).body.data.id;
    expect(await emailOf(id)).toBe('comma@example.com');
    // Users without an e-mail (an OpenID account may have none) stay possible.
    await t.request.post('/users').set(admin).send({ first_name: 'No mail' }).expect(200);
  });

  it('nested writes to tessera_users (a role with its users) and imports normalise too', async () => {
    const role = await t.request.post('/roles').set(admin).send({ name: 'Nested', users: [{ email: ' Nested@Example.com ', password: PASSWORD }] }).expect(200);
    const nested = await t.system.db.selectFrom('tessera_users').select('email').where('role', '=', role.body.data.id).execute();
    expect(nested).toEqual([{ email: 'nested@example.com' }]);
    expectError(await t.request.post('/roles').set(admin).send({ name: 'Dup', users: [{ email: 'NESTED@example.com' }] }), 'RECORD_NOT_UNIQUE');

    const imported = await t.request
      .post('/utils/import/tessera_users')
      .set(admin)
      .attach('file', Buffer.from(JSON.stringify([{ email: ' Imported@Example.com ' }])), { filename: 'users.json', contentType: 'application/json' });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect((await t.system.db.selectFrom('tessera_users').select('email').where((eb) => eb(eb.fn('lower', ['email']), 'like', '%imported@example.com%')).execute())).toEqual([
      { email: 'imported@example.com' },
    ]);
  });

  it('the database refuses a second account in another case even for writes that bypass the API', async () => {
    await expect(t.system.db.insertInto('tessera_users').values({ email: 'ED@example.com' }).execute()).rejects.toThrow(/tessera_users_email_lower_unique/);
  });
});
