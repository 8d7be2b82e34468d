import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createSecondInstance, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { cookiesOf, PUBLIC_URL } from './oidc-test-kit.ts';
import { spMetadataFor, startSamlIdp, type TestSamlIdp } from './saml-idp.ts';

/** AUTH_<NAME>_* of a SAML provider trusting `idp`. */
function samlEnv(name: string, idp: TestSamlIdp, extra: Record<string, string> = {}): Record<string, string> {
  const prefix = `AUTH_${name.toUpperCase()}_`;
  const env: Record<string, string> = {
    [`${prefix}DRIVER`]: 'saml',
    // Directus's spelling of the two metadata variables.
    [`${prefix}SP_metadata`]: spMetadataFor(PUBLIC_URL, name),
    [`${prefix}IDP_metadata`]: idp.metadata,
  };
  for (const [suffix, value] of Object.entries(extra)) env[`${prefix}${suffix}`] = value;
  return env;
}

describe('SAML 2.0 sign-in against a samlify IdP', () => {
  let idp: TestSamlIdp;
  let t: TestApp;
  const sp = spMetadataFor(PUBLIC_URL, 'okta');

  beforeAll(async () => {
    idp = await startSamlIdp();
    t = await createTestApp({ PUBLIC_URL, AUTH_PROVIDERS: 'okta,shut', ...samlEnv('okta', idp, { ALLOW_PUBLIC_REGISTRATION: 'true', LABEL: 'Okta', ICON: 'key' }), ...samlEnv('shut', idp) });
  });
  afterAll(async () => {
    await t?.close();
  });

  const start = async (path = '/auth/login/okta') => new URL((await t.request.get(path).expect(302)).headers.location!);
  const post = (form: Record<string, string>, name = 'okta') => t.request.post(`/auth/login/${name}/acs`).type('form').send(form);

  it('serves the SP metadata at /auth/login/<name>/metadata', async () => {
    const response = await t.request.get('/auth/login/okta/metadata').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    expect(response.text).toBe(sp);
  });

  it('starts SP-initiated: redirects to the IdP with a deflated AuthnRequest and an opaque RelayState', async () => {
    const redirect = await start();
    expect(`${redirect.origin}${redirect.pathname}`).toBe('https://idp.test/sso');
    expect(redirect.searchParams.get('SAMLRequest')).toBeTruthy();
    expect(redirect.searchParams.get('RelayState')!.split('.')).toHaveLength(5);
  });

  it('consumes a signed assertion: creates the user linked by NameID, starts a session, goes to the redirect', async () => {
    const redirect = await start(`/auth/login/okta?redirect=${encodeURIComponent('/admin/content')}`);
    const extra = { department: 'Docs', userPassword: 'idp-leaked-password-1', session_token: 'idp-leaked-token-2' };
    const response = await post(await idp.respond(redirect, sp, { email: 'ann@idp.test', firstName: 'Ann', lastName: 'Lee', extra })).expect(302);
    expect(response.headers.location).toBe(`${PUBLIC_URL}/admin/content`);
    const me = await t.request.get('/users/me').set('Cookie', cookiesOf(response).join('; ')).expect(200);
    const user = await t.system.db.selectFrom('tessera_users').selectAll().where('id', '=', me.body.data.id).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ provider: 'okta', external_identifier: 'ann@idp.test', email: 'ann@idp.test', first_name: 'Ann', last_name: 'Lee', status: 'active' });
    const { profile } = user.auth_data as { profile: Record<string, unknown> };
    expect(profile).toMatchObject({ nameID: 'ann@idp.test', issuer: 'https://idp.test/metadata', department: 'Docs' });
    // auth_data keeps the profile minus secrets.
    expect(JSON.stringify(user.auth_data)).not.toMatch(/idp-leaked|userPassword|session_token/);
  });

  it('logs out at the IdP too (single logout): the session ends and the browser carries a LogoutRequest for the person', async () => {
    const signedIn = await post(await idp.respond(await start(), sp, { email: 'leave@idp.test' })).expect(302);
    const cookies = cookiesOf(signedIn);
    await t.request.get('/users/me').set('Cookie', cookies.join('; ')).expect(200);
    const response = await t.request.post('/auth/login/okta/logout').set('Cookie', cookies.join('; ')).send({ redirect: '/admin/login' }).expect(302);
    const redirect = new URL(response.headers.location!);
    expect(`${redirect.origin}${redirect.pathname}`).toBe('https://idp.test/slo');
    expect(await idp.readLogoutRequest(redirect, sp)).toEqual({ issuer: `${PUBLIC_URL}/auth/login/okta/metadata`, nameID: 'leave@idp.test', sessionIndex: '_session', relayState: `${PUBLIC_URL}/admin/login` });
    // The session is gone: the old cookie signs nobody in.
    const me = await t.request.get('/users/me').set('Cookie', cookies.join('; '));
    expect(me.status).not.toBe(200);
    // The IdP's answer comes back to …/logout and goes on to the RelayState page.
    const back = await t.request.get(`/auth/login/okta/logout?SAMLResponse=x&RelayState=${encodeURIComponent(`${PUBLIC_URL}/admin/login`)}`).expect(302);
    expect(back.headers.location).toBe(`${PUBLIC_URL}/admin/login`);
    // Without a session nothing goes to the IdP; a foreign redirect is refused.
    const anonymous = await t.request.post('/auth/login/okta/logout').send({}).expect(302);
    expect(anonymous.headers.location).toBe(`${PUBLIC_URL}/admin`);
    await t.request.post('/auth/login/okta/logout').send({ redirect: 'https://evil.example/' }).expect(400);
  });

  it('refuses a replayed response, also at another instance of the project', async () => {
    const form = await idp.respond(await start(), sp, { email: 'replay@idp.test' });
    await post(form).expect(302);
    const replay = await post(form).expect(401);
    expect(replay.body.errors[0].extensions.reason).toBe('OAuthCallback');
    // The used request is recorded where every instance sees it, not in one process's memory.
    const { rows } = await sql<{ count: string }>`select count(*) from tessera_internal.saml_used_requests`.execute(t.system.db);
    expect(Number(rows[0]!.count)).toBeGreaterThan(0);
    await sql`delete from tessera_internal.saml_used_requests`.execute(t.system.db);
    await post(form).expect(302);
    const other = await createSecondInstance(t, { PUBLIC_URL, AUTH_PROVIDERS: 'okta', ...samlEnv('okta', idp, { ALLOW_PUBLIC_REGISTRATION: 'true' }) });
    try {
      const elsewhere = await other.request.post('/auth/login/okta/acs').type('form').send(form).expect(401);
      expect(elsewhere.body.errors[0].message).toMatch(/used already/);
    } finally {
      await other.close();
    }
  });

  it('refuses a tampered assertion (the NameID changed after signing)', async () => {
    const form = await idp.respond(await start(), sp, { email: 'honest@idp.test' });
    const xml = Buffer.from(form.SAMLResponse, 'base64').toString('utf8');
    expect(xml).toContain('honest@idp.test');
    const tampered = Buffer.from(xml.replaceAll('honest@idp.test', 'admin@idp.test')).toString('base64');
    const response = await post({ ...form, SAMLResponse: tampered }).expect(401);
    expect(response.body.errors[0].extensions.reason).toBe('OAuthCallback');
    expect(await t.system.db.selectFrom('tessera_users').select('id').where('email', 'in', ['admin@idp.test', 'honest@idp.test']).execute()).toEqual([]);
  });

  it('refuses an expired assertion and one for another audience', async () => {
    const expired = await post(await idp.respond(await start(), sp, { email: 'late@idp.test' }, { shiftSeconds: -3600 })).expect(401);
    // node-saml checks the subject confirmation's NotOnOrAfter first: an expired one is no valid confirmation.
    expect(expired.body.errors[0].message).toMatch(/No valid subject confirmation|expired/i);
    const foreign = await post(await idp.respond(await start(), sp, { email: 'aud@idp.test' }, { audience: 'https://other.example/sp' })).expect(401);
    expect(foreign.body.errors[0].message).toMatch(/audience/i);
  });

  it('refuses a response without a RelayState of ours, or with another provider\'s', async () => {
    const form = await idp.respond(await start(), sp, { email: 'relay@idp.test' });
    const missing = await post({ SAMLResponse: form.SAMLResponse }).expect(401);
    expect(missing.body.errors[0].message).toBe('did not find expected authorization request details in session');
    await post(form, 'shut').expect(401);
  });

  it('refuses unknown people without registration and never takes over an existing e-mail', async () => {
    const shutSp = spMetadataFor(PUBLIC_URL, 'shut');
    const refused = await post(await idp.respond(await start('/auth/login/shut'), shutSp, { email: 'outsider@idp.test' }), 'shut').expect(403);
    expect(refused.body.errors[0].extensions.reason).toBe('AccessDenied');

    await t.system.db.insertInto('tessera_users').values({ email: 'owner@idp.test', status: 'active' }).execute();
    const collision = await post(await idp.respond(await start(), sp, { email: 'owner@idp.test' })).expect(403);
    expect(collision.body.errors[0].extensions.reason).toBe('OAuthAccountNotLinked');
  });

  it('sends page sign-ins (/auth/signin/<name>) back to callbackUrl, and their failures to the error page', async () => {
    const csrf = await t.request.get('/auth/csrf').expect(200);
    const begin = async () => {
      const response = await t.request.post('/auth/signin/okta').type('form').set('Cookie', cookiesOf(csrf).join('; ')).send({ csrfToken: csrf.body.csrfToken, callbackUrl: `${PUBLIC_URL}/admin/users` }).expect(302);
      return new URL(response.headers.location!);
    };
    const ok = await post(await idp.respond(await begin(), sp, { email: 'page@idp.test' })).expect(302);
    expect(ok.headers.location).toBe(`${PUBLIC_URL}/admin/users`);
    const late = await post(await idp.respond(await begin(), sp, { email: 'page-late@idp.test' }, { shiftSeconds: -3600 })).expect(302);
    expect(late.headers.location).toBe(`${PUBLIC_URL}/auth/error?error=OAuthCallback`);
  });
});
