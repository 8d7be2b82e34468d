import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { GROUPS_DN, group, PEOPLE_DN, person, SERVICE_DN, SERVICE_PASSWORD, startLdapServer, type TestLdapServer } from './ldap-server.ts';

const PUBLIC_URL = 'http://tessera.test';

/** AUTH_CORP_* of a directory provider at `url`. */
function ldapEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    PUBLIC_URL,
    AUTH_PROVIDERS: 'corp',
    AUTH_CORP_DRIVER: 'ldap',
    AUTH_CORP_CLIENT_URL: url,
    AUTH_CORP_BIND_DN: SERVICE_DN,
    AUTH_CORP_BIND_PASSWORD: SERVICE_PASSWORD,
    AUTH_CORP_USER_DN: PEOPLE_DN,
    AUTH_CORP_USER_ATTRIBUTE: 'uid',
    AUTH_CORP_GROUP_DN: GROUPS_DN,
    AUTH_CORP_ALLOW_PUBLIC_REGISTRATION: 'true',
    AUTH_CORP_LABEL: 'Corporate directory',
    AUTH_CORP_ICON: 'lan',
  };
  for (const [suffix, value] of Object.entries(extra)) env[`AUTH_CORP_${suffix}`] = value;
  return env;
}

describe('LDAP sign-in (POST /auth/login/:provider) against slapd', () => {
  let ldap: TestLdapServer;
  let t: TestApp;
  let editors: string;
  let admins: string;
  const login = (identifier: unknown, password: unknown, extra: Record<string, unknown> = {}) => t.request.post('/auth/login/corp').send({ identifier, password, ...extra });

  beforeAll(async () => {
    ldap = await startLdapServer();
    for (const [dn, attributes] of [
      person('ada', 'ada-pass-1'),
      person('grace', 'grace-pass-1'),
      person('off', 'off-pass-1', { userAccountControl: '514' }),
      person('nogroup', 'nogroup-pass-1'),
      person('collide', 'collide-pass-1'),
    ]) {
      await ldap.add(dn, attributes);
    }
    await ldap.add(...group('Editors', [`uid=ada,${PEOPLE_DN}`, `uid=grace,${PEOPLE_DN}`]));
    await ldap.add(...group('Admins', [`uid=grace,${PEOPLE_DN}`]));
    t = await createTestApp(ldapEnv(ldap.url));
    const roles = await t.system.db
      .insertInto('tessera_roles')
      .values([
        { name: 'Editors', app_access: true, admin_access: false },
        { name: 'Admins', app_access: true, admin_access: false },
      ])
      .returning(['id', 'name'])
      .execute();
    editors = roles.find((role) => role.name === 'Editors')!.id as string;
    admins = roles.find((role) => role.name === 'Admins')!.id as string;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await ldap?.close();
  });

  it('lists the provider in GET /auth (Directus shape) and /auth/providers, without its options', async () => {
    const listing = await t.request.get('/auth').expect(200);
    expect(listing.body).toEqual({ data: [{ name: 'corp', driver: 'ldap', label: 'Corporate directory', icon: 'lan' }], disableDefault: false });
    const providers = await t.request.get('/auth/providers').expect(200);
    expect(providers.body.corp).toMatchObject({ id: 'corp', name: 'Corporate directory', type: 'credentials' });
    for (const body of [listing.text, providers.text]) {
      expect(body).not.toContain(SERVICE_PASSWORD);
      expect(body).not.toContain(SERVICE_DN);
    }
  });

  it('signs a directory user in, creates the user linked by DN, maps the group to a role, keeps the profile without secrets', async () => {
    const response = await login('ada', 'ada-pass-1').expect(200);
    expect(response.body.data).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String), expires: expect.any(Number) });
    const me = await t.request.get('/users/me').set('Authorization', `Bearer ${response.body.data.access_token}`).expect(200);
    const user = await t.system.db.selectFrom('tessera_users').selectAll().where('id', '=', me.body.data.id).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ provider: 'corp', external_identifier: `uid=ada,${PEOPLE_DN}`, email: 'ada@directory.test', first_name: 'Given-ada', last_name: 'Sn-ada', role: editors, status: 'active', password: null });
    const authData = user.auth_data as { profile: Record<string, unknown> };
    expect(authData.profile).toMatchObject({ dn: `uid=ada,${PEOPLE_DN}`, uid: 'ada', mail: 'ada@directory.test', groups: ['Editors'] });
    expect(JSON.stringify(user.auth_data)).not.toContain('ada-pass-1');
    expect(JSON.stringify(me.body)).not.toContain('ada-pass-1');
  });

  it('picks the role of the first matching group by name, and signs the same entry in as the same user', async () => {
    const first = await login('grace', 'grace-pass-1').expect(200);
    const again = await login('grace', 'grace-pass-1').expect(200);
    const ids = await Promise.all([first, again].map(async (response) => (await t.request.get('/users/me').set('Authorization', `Bearer ${response.body.data.access_token}`).expect(200)).body.data.id));
    expect(ids[0]).toBe(ids[1]);
    const user = await t.system.db.selectFrom('tessera_users').select('role').where('id', '=', ids[0]).executeTakeFirstOrThrow();
    expect(user.role).toBe(admins);
  });

  it('follows a change of groups in the directory on the next sign-in', async () => {
    await ldap.add(...group('Nobody', [`uid=nogroup,${PEOPLE_DN}`]));
    await login('nogroup', 'nogroup-pass-1').expect(200);
    const before = await t.system.db.selectFrom('tessera_users').select('role').where('external_identifier', '=', `uid=nogroup,${PEOPLE_DN}`).executeTakeFirstOrThrow();
    expect(before.role).toBeNull();
    await ldap.modify(`cn=Admins,${GROUPS_DN}`, 'member', [`uid=grace,${PEOPLE_DN}`, `uid=nogroup,${PEOPLE_DN}`]);
    await login('nogroup', 'nogroup-pass-1').expect(200);
    const after = await t.system.db.selectFrom('tessera_users').select('role').where('external_identifier', '=', `uid=nogroup,${PEOPLE_DN}`).executeTakeFirstOrThrow();
    expect(after.role).toBe(admins);
  });

  it('refuses a wrong password and an unknown identifier with the same 401', async () => {
    const wrong = await login('ada', 'not-her-password').expect(401);
    const unknown = await login('nobody-here', 'whatever-1').expect(401);
    expect(wrong.body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');
    expect(unknown.body.errors[0]).toEqual(wrong.body.errors[0]);
  });

  it('refuses a disabled account (userAccountControl ACCOUNTDISABLE) after a correct password only', async () => {
    const right = await login('off', 'off-pass-1').expect(401);
    expect(right.body.errors[0].extensions.code).toBe('USER_SUSPENDED');
    const wrong = await login('off', 'wrong-pass-1').expect(401);
    expect(wrong.body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');
    expect(await t.system.db.selectFrom('tessera_users').select('id').where('external_identifier', '=', `uid=off,${PEOPLE_DN}`).executeTakeFirst()).toBeUndefined();
  });

  it('escapes the identifier (RFC 4515): wildcards and filter syntax match nobody', async () => {
    // Unescaped, (uid=a*) would find ada alone, and her password would sign in.
    for (const identifier of ['a*', '*', 'ada)(uid=*', 'ad\\61']) {
      const response = await login(identifier, 'ada-pass-1').expect(401);
      expect(response.body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');
    }
  });

  it('answers 400 naming the field for a missing, empty or non-string identifier or password', async () => {
    const cases: Array<[unknown, unknown, string]> = [
      [undefined, 'x', 'identifier'],
      ['ada', '', 'password'],
      ['ada', undefined, 'password'],
      [{ $ne: 1 }, 'x', 'identifier'],
      ['ada', 12345678, 'password'],
    ];
    for (const [identifier, password, field] of cases) {
      const response = await login(identifier, password).expect(400);
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field });
    }
  });

  it('delivers the tokens in session mode as the session cookie', async () => {
    const response = await login('ada', 'ada-pass-1', { mode: 'session' }).expect(200);
    expect(Object.keys(response.body.data)).toEqual(['expires']);
    const cookies = (response.headers['set-cookie'] as unknown as string[]).map((header) => header.split(';')[0]!);
    await t.request.get('/users/me').set('Cookie', cookies.join('; ')).expect(200);
  });

  it('never takes over a user with the same e-mail, and refuses unknown people without public registration', async () => {
    await t.system.db.insertInto('tessera_users').values({ email: 'collide@directory.test', status: 'active' }).execute();
    const collision = await login('collide', 'collide-pass-1').expect(403);
    expect(collision.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'OAuthAccountNotLinked' });

    const closed = await createTestApp(ldapEnv(ldap.url, { ALLOW_PUBLIC_REGISTRATION: 'false' }));
    try {
      const refused = await closed.request.post('/auth/login/corp').send({ identifier: 'ada', password: 'ada-pass-1' }).expect(403);
      expect(refused.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'AccessDenied' });
      expect(await closed.system.db.selectFrom('tessera_users').select('id').where('provider', '=', 'corp').executeTakeFirst()).toBeUndefined();
    } finally {
      await closed.close();
    }
  });

  it('answers 503 without the service password when the directory refuses BIND_PASSWORD', async () => {
    const broken = await createTestApp(ldapEnv(ldap.url, { BIND_PASSWORD: 'wrong-service-secret' }));
    try {
      const response = await broken.request.post('/auth/login/corp').send({ identifier: 'ada', password: 'ada-pass-1' }).expect(503);
      expect(response.body.errors[0].message).toMatch(/refused BIND_DN and BIND_PASSWORD/);
      expect(response.text).not.toContain('wrong-service-secret');
    } finally {
      await broken.close();
    }
  });

  it('offers a directory form on the sign-in page that signs in with the session cookie, failures going to the error page', async () => {
    const page = await t.request.get('/auth/signin').expect(200);
    expect(page.text).toContain('action="/auth/callback/corp"');
    expect(page.text).toContain('name="identifier"');
    expect(page.text).toContain('data-icon="lan"');
    expect(page.text).toContain('Sign in with Corporate directory');
    // The configured icon is drawn (the admin's antd outlined set: "lan" is the cluster icon), not only named.
    const button = /<button type="submit" data-icon="lan">(<svg[^]*?<\/svg>) Sign in with Corporate directory<\/button>/.exec(page.text);
    expect(button?.[1]).toContain('aria-hidden="true"');
    const cluster = readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('@ant-design/icons-svg/package.json')), 'inline-svg', 'outlined', 'cluster.svg'), 'utf8');
    expect(button?.[1]).toContain(/ d="([^"]+)"/.exec(cluster)![1]);
    const csrf = await t.request.get('/auth/csrf').expect(200);
    const jar = (response: { headers: Record<string, unknown> }) => ((response.headers['set-cookie'] as string[] | undefined) ?? []).map((header) => header.split(';')[0]!);
    const submit = (password: string) =>
      t.request
        .post('/auth/callback/corp')
        .type('form')
        .set('Cookie', jar(csrf).join('; '))
        .send({ csrfToken: csrf.body.csrfToken, identifier: 'ada', password, callbackUrl: `${PUBLIC_URL}/admin/content` })
        .expect(302);
    const ok = await submit('ada-pass-1');
    expect(ok.headers.location).toBe(`${PUBLIC_URL}/admin/content`);
    await t.request.get('/users/me').set('Cookie', jar(ok).join('; ')).expect(200);
    const wrong = await submit('not-her-password');
    expect(wrong.headers.location).toBe(`${PUBLIC_URL}/auth/error?error=CredentialsSignin`);
    // Without the CSRF token nothing is checked against the directory.
    await t.request.post('/auth/callback/corp').type('form').send({ identifier: 'ada', password: 'ada-pass-1' }).expect(400);
  });

  it('has no redirect routes: GET /auth/login/corp is 404, and POST to an unknown provider is 404', async () => {
    await t.request.get('/auth/login/corp').expect(404);
    await t.request.post('/auth/login/nope').send({ identifier: 'ada', password: 'x' }).expect(404);
  });
});
