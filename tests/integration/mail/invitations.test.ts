import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { passwordFingerprint, signEmailToken } from '../../../server/auth/email-tokens.ts';
import { UsersService } from '../../../server/services/users-service.ts';
import { linkIn, startSesEmulator, type SesEmulator } from '../../helpers/ses-emulator.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const PUBLIC_URL = 'http://tessera.test';

describe('invitations by e-mail (SES)', () => {
  let ses: SesEmulator;
  let t: TestApp;
  let admin: string;
  let editorRole: string;
  let adminRole: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });

  const userRow = (email: string) => t.system.db.selectFrom('tessera_users').select(['id', 'email', 'status', 'role', 'password']).where('email', '=', email).executeTakeFirst();

  beforeAll(async () => {
    ses = await startSesEmulator();
    t = await createTestApp({ ...ses.env, PUBLIC_URL, USER_INVITE_URL_ALLOW_LIST: 'https://app.example.com/welcome' });
    admin = await t.login();
    editorRole = (await t.system.db.insertInto('tessera_roles').values({ name: 'Editor', app_access: true }).returning('id').executeTakeFirstOrThrow()).id;
    adminRole = (await t.system.db.selectFrom('tessera_roles').select('id').where('admin_access', '=', true).executeTakeFirstOrThrow()).id;
    await new UsersService(t.system).createOne({ email: 'member@example.com', password: 'member-password', role: editorRole });
  });
  afterAll(async () => {
    await t.close();
    await ses.close();
  });
  beforeEach(async () => {
    await t.system.db.updateTable('tessera_settings').set({ auth_password_policy: 'none' }).execute();
  });

  it('invite → user `invited` → mail → accept with the token → `active`, signs in → replay refused', async () => {
    await t.request.post('/users/invite').set(auth()).send({ email: 'New.Person@Example.com', role: editorRole }).expect(204);
    expect(await userRow('new.person@example.com')).toMatchObject({ status: 'invited', role: editorRole, password: null });
    const invited = await t.request.post('/auth/login').send({ email: 'new.person@example.com', password: 'anything-at-all' }).expect(401);
    expect(invited.body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');

    const [mail] = await ses.waitForEmails('new.person@example.com');
    expect(mail!.subject).toBe('You have been invited to Tessera');
    const link = linkIn(mail!);
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/admin/accept-invite`);
    const token = link.searchParams.get('token')!;

    await t.request.post('/users/invite/accept').send({ token, password: 'chosen-password' }).expect(204);
    expect(await userRow('new.person@example.com')).toMatchObject({ status: 'active', role: editorRole });
    await t.request.post('/auth/login').send({ email: 'new.person@example.com', password: 'chosen-password' }).expect(200);

    const replay = await t.request.post('/users/invite/accept').send({ token, password: 'another-password' }).expect(401);
    expect(replay.body.errors[0].extensions).toMatchObject({ code: 'INVALID_TOKEN', field: 'token' });
    await t.request.post('/auth/login').send({ email: 'new.person@example.com', password: 'chosen-password' }).expect(200);
  });

  it('invites a list; re-inviting an invited user re-sends and takes the new role', async () => {
    await t.request.post('/users/invite').set(auth()).send({ email: ['one@example.com', 'two@example.com'], role: editorRole }).expect(204);
    expect(await ses.waitForEmails('one@example.com')).toHaveLength(1);
    expect(await ses.waitForEmails('two@example.com')).toHaveLength(1);

    await t.request.post('/users/invite').set(auth()).send({ email: 'one@example.com', role: adminRole }).expect(204);
    expect(await ses.waitForEmails('one@example.com', 2)).toHaveLength(2);
    expect(await userRow('one@example.com')).toMatchObject({ status: 'invited', role: adminRole });
    const users = await t.system.db.selectFrom('tessera_users').select('id').where('email', '=', 'one@example.com').execute();
    expect(users).toHaveLength(1);
  });

  it('refuses an existing active user with 400 naming email, and creates nobody from that request', async () => {
    const refused = await t.request.post('/users/invite').set(auth()).send({ email: ['three@example.com', 'Member@example.com'], role: editorRole }).expect(400);
    expect(refused.body.errors[0]).toMatchObject({ message: 'A user with the e-mail "member@example.com" already exists.', extensions: { code: 'INVALID_PAYLOAD', field: 'email' } });
    expect(await userRow('three@example.com')).toBeUndefined();
    expect(await userRow('member@example.com')).toMatchObject({ status: 'active' });
    await t.context.mailer.idle();
    expect(await ses.emailsTo('three@example.com')).toHaveLength(0);
  });

  it("applies the caller's permissions: the public and a user without rights on users get FORBIDDEN", async () => {
    const anonymous = await t.request.post('/users/invite').send({ email: 'sneaky@example.com', role: adminRole }).expect(403);
    expect(anonymous.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const member = await t.login('member@example.com', 'member-password');
    await t.request.post('/users/invite').set({ Authorization: `Bearer ${member}` }).send({ email: 'sneaky@example.com', role: adminRole }).expect(403);
    // Existing accounts are not revealed to callers who cannot see them.
    const probe = await t.request.post('/users/invite').set({ Authorization: `Bearer ${member}` }).send({ email: 'admin@example.com', role: adminRole }).expect(403);
    expect(probe.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await userRow('sneaky@example.com')).toBeUndefined();
  });

  it('uses invite_url only when it is allowed, else 400 naming invite_url', async () => {
    await t.request.post('/users/invite').set(auth()).send({ email: 'four@example.com', role: editorRole, invite_url: 'https://app.example.com/welcome' }).expect(204);
    const link = linkIn((await ses.waitForEmails('four@example.com'))[0]!);
    expect(`${link.origin}${link.pathname}`).toBe('https://app.example.com/welcome');
    const refused = await t.request.post('/users/invite').set(auth()).send({ email: 'five@example.com', role: editorRole, invite_url: 'https://evil.example.com/welcome' }).expect(400);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'invite_url' });
    expect(await userRow('five@example.com')).toBeUndefined();
  });

  it('applies the password policy on accept; expired and reset tokens are refused', async () => {
    await t.request.post('/users/invite').set(auth()).send({ email: 'six@example.com', role: editorRole }).expect(204);
    const token = linkIn((await ses.waitForEmails('six@example.com'))[0]!).searchParams.get('token')!;
    await t.system.db.updateTable('tessera_settings').set({ auth_password_policy: 'weak' }).execute();
    const short = await t.request.post('/users/invite/accept').send({ token, password: 'short' }).expect(400);
    expect(short.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'password' });
    expect(await userRow('six@example.com')).toMatchObject({ status: 'invited' });

    const user = (await userRow('six@example.com'))!;
    const claims = { userId: user.id, email: user.email, fingerprint: passwordFingerprint(null) };
    const expired = await signEmailToken(t.context.config.secret, 'invite', claims, -1000);
    const late = await t.request.post('/users/invite/accept').send({ token: expired, password: 'long-enough' }).expect(401);
    expect(late.body.errors[0].extensions).toMatchObject({ code: 'TOKEN_EXPIRED', field: 'token' });
    const reset = await signEmailToken(t.context.config.secret, 'password-reset', claims, 60_000);
    await t.request.post('/users/invite/accept').send({ token: reset, password: 'long-enough' }).expect(401);

    await t.request.post('/users/invite/accept').send({ token, password: 'long-enough' }).expect(204);
    expect(await userRow('six@example.com')).toMatchObject({ status: 'active' });
  });

  it('names the missing or malformed field with 400 INVALID_PAYLOAD', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/users/invite', { role: editorRole }, 'email'],
      ['/users/invite', { email: 'not-an-email', role: editorRole }, 'email'],
      ['/users/invite', { email: [], role: editorRole }, 'email'],
      ['/users/invite', { email: ['ok@example.com', 42], role: editorRole }, 'email'],
      ['/users/invite', { email: { a: 1 }, role: editorRole }, 'email'],
      ['/users/invite', { email: 'ok@example.com' }, 'role'],
      ['/users/invite', { email: 'ok@example.com', role: 'editor' }, 'role'],
      ['/users/invite', { email: 'ok@example.com', role: editorRole, invite_url: 'ftp://example.com/x' }, 'invite_url'],
      ['/users/invite/accept', { password: 'long-enough' }, 'token'],
      ['/users/invite/accept', { token: 'abc' }, 'password'],
    ];
    for (const [path, body, field] of cases) {
      const response = await t.request.post(path).set(auth()).send(body).expect(400);
      expect(response.body.errors[0].extensions, `${path} ${JSON.stringify(body)}`).toMatchObject({ code: 'INVALID_PAYLOAD', field });
    }
    const garbage = await t.request.post('/users/invite/accept').send({ token: 'not.a.jwt', password: 'long-enough' }).expect(401);
    expect(garbage.body.errors[0].extensions).toMatchObject({ code: 'INVALID_TOKEN', field: 'token' });
    expect(await userRow('ok@example.com')).toBeUndefined();
  });

  it('answers an unknown role with a 4xx naming role, not a 500', async () => {
    const response = await t.request.post('/users/invite').set(auth()).send({ email: 'seven@example.com', role: '00000000-0000-4000-8000-000000000000' }).expect(400);
    expect(response.body.errors[0].extensions.field).toBe('role');
    expect(await userRow('seven@example.com')).toBeUndefined();
  });
});
