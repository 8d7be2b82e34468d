import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { linkIn, startSesEmulator, type SesEmulator } from '../../helpers/ses-emulator.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const PUBLIC_URL = 'http://tessera.test';

// Issue 31, item 10: Directus's public registration, POST /users/register and /users/register/verify-email,
// switched on and shaped by the settings public_registration, public_registration_role,
// public_registration_verify_email and public_registration_email_filter.
describe('public registration (issue 31)', () => {
  let ses: SesEmulator;
  let t: TestApp;
  let admin: string;
  let memberRole: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });
  const settings = (values: Record<string, unknown>) => t.request.patch('/settings').set(auth()).send(values).expect(200);
  const userRow = (email: string) => t.system.db.selectFrom('tessera_users').select(['id', 'status', 'role', 'first_name']).where('email', '=', email).executeTakeFirst();

  beforeAll(async () => {
    ses = await startSesEmulator();
    t = await createTestApp({ ...ses.env, PUBLIC_URL, USER_REGISTER_URL_ALLOW_LIST: 'https://app.example.com/verified' });
    admin = await t.login();
    memberRole = (await t.request.post('/roles').set(auth()).send({ name: 'Member', app_access: true }).expect(200)).body.data.id;
  });
  afterAll(async () => {
    await t.close();
    await ses.close();
  });
  beforeEach(() => settings({ public_registration: true, public_registration_verify_email: true, public_registration_role: memberRole, public_registration_email_filter: null }));

  it('is refused with 403 while public_registration is off (the default)', async () => {
    const fresh = (await t.request.get('/settings').set(auth()).query({ fields: 'public_registration,public_registration_verify_email,public_registration_role,public_registration_email_filter' }).expect(200)).body.data;
    expect(Object.keys(fresh).sort()).toEqual(['public_registration', 'public_registration_email_filter', 'public_registration_role', 'public_registration_verify_email']);
    await settings({ public_registration: false });
    await t.request.post('/users/register').send({ email: 'closed@example.com', password: 'closed-password-1' }).expect(403);
    expect(await userRow('closed@example.com')).toBeUndefined();
  });

  it('registers an unverified user with the role, mails the link, and the link activates the account once', async () => {
    await t.request.post('/users/register').send({ email: 'New.Reader@Example.com', password: 'reader-password-1', first_name: 'Nia' }).expect(204);
    expect(await userRow('new.reader@example.com')).toMatchObject({ status: 'unverified', role: memberRole, first_name: 'Nia' });
    await t.request.post('/auth/login').send({ email: 'new.reader@example.com', password: 'reader-password-1' }).expect(401);

    const [mail] = await ses.waitForEmails('new.reader@example.com');
    const link = linkIn(mail!);
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/users/register/verify-email`);
    const verified = await t.request.get(`/users/register/verify-email?token=${encodeURIComponent(link.searchParams.get('token')!)}`).expect(302);
    const user = await userRow('new.reader@example.com');
    expect(verified.headers.location).toBe(`${PUBLIC_URL}/admin/users/${user!.id}`);
    expect(user!.status).toBe('active');
    await t.request.post('/auth/login').send({ email: 'new.reader@example.com', password: 'reader-password-1' }).expect(200);

    const again = await t.request.get(`/users/register/verify-email?token=${encodeURIComponent(link.searchParams.get('token')!)}`).expect(400);
    expect(again.body.errors[0]).toMatchObject({ message: 'Invalid verification code.', extensions: { code: 'INVALID_PAYLOAD', field: 'token' } });
    expect((await t.request.get('/users/register/verify-email').expect(302)).headers.location).toBe(`${PUBLIC_URL}/admin/login`);
    await t.request.get('/users/register/verify-email?token=not-a-token').expect(401);
  });

  it('answers an address that has an account like a new one, changes nothing, and mails nothing', async () => {
    await t.request.post('/users/register').send({ email: 'admin@example.com', password: 'someone-elses-1' }).expect(204);
    await t.request.post('/auth/login').send({ email: 'admin@example.com', password: 'someone-elses-1' }).expect(401);
    // A later mail to another address arrives, and none went to the administrator in between.
    await t.request.post('/users/register').send({ email: 'later@example.com', password: 'later-password-1' }).expect(204);
    await ses.waitForEmails('later@example.com');
    expect((await ses.emails()).filter((email) => email.destination.to.includes('admin@example.com'))).toEqual([]);
  });

  it('activates at once without e-mail verification, applies the e-mail filter, and allow-lists verification_url', async () => {
    await settings({ public_registration_verify_email: false, public_registration_email_filter: { email: { _ends_with: '@members.example.com' } } });
    await t.request.post('/users/register').send({ email: 'outsider@example.com', password: 'outsider-password-1' }).expect(403);
    expect(await userRow('outsider@example.com')).toBeUndefined();
    await t.request.post('/users/register').send({ email: 'ada@members.example.com', password: 'ada-password-1' }).expect(204);
    expect(await userRow('ada@members.example.com')).toMatchObject({ status: 'active', role: memberRole });
    await t.request.post('/auth/login').send({ email: 'ada@members.example.com', password: 'ada-password-1' }).expect(200);

    await settings({ public_registration_verify_email: true, public_registration_email_filter: null });
    const foreign = await t.request.post('/users/register').send({ email: 'lin@example.com', password: 'lin-password-1', verification_url: 'https://evil.example.com/verify' }).expect(400);
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'verification_url' });
    await t.request.post('/users/register').send({ email: 'lin@example.com', password: 'lin-password-1', verification_url: 'https://app.example.com/verified' }).expect(204);
    const link = linkIn((await ses.waitForEmails('lin@example.com'))[0]!);
    expect(`${link.origin}${link.pathname}`).toBe('https://app.example.com/verified');
  });

  it('names the bad field of a registration with 400', async () => {
    for (const [body, field] of [[{ password: 'pw-password-1' }, 'email'], [{ email: 'x@example.com' }, 'password'], [{ email: 'not-an-email', password: 'pw-password-1' }, 'email'], [{ email: 'x@example.com', password: 'pw-password-1', first_name: 7 }, 'first_name']] as const) {
      const response = await t.request.post('/users/register').send(body).expect(400);
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field });
    }
  });
});
