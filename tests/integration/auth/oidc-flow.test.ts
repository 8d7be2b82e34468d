import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type TestOidcProvider } from '../../helpers/oidc-provider.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { cookiesOf, deliverCallback, providerEnv, PUBLIC_URL, redirectUrisFor, setCookieHeader, startSignIn } from './oidc-test-kit.ts';

describe('OpenID Connect sign-in (SDK route /auth/login/:provider)', () => {
  let provider: TestOidcProvider;
  let t: TestApp;
  let editorRole: string;

  beforeAll(async () => {
    provider = await startOidcProvider(redirectUrisFor(['test']));
    t = await createTestApp({ PUBLIC_URL, AUTH_PROVIDERS: 'test', ...providerEnv('test', provider.issuer, { ALLOW_PUBLIC_REGISTRATION: 'true', LABEL: 'Test ID', ICON: 'key' }) });
    const role = await t.system.db.insertInto('tessera_roles').values({ name: 'Editor', app_access: true, admin_access: false }).returning('id').executeTakeFirstOrThrow();
    editorRole = role.id as string;
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  it('redirects to the provider with state, nonce, S256 PKCE and the configured scope', async () => {
    const { authorizationUrl, cookies } = await startSignIn(t, '/auth/login/test');
    expect(authorizationUrl.origin).toBe(provider.issuer);
    const params = authorizationUrl.searchParams;
    expect(params.get('client_id')).toBe('tessera-test');
    expect(params.get('redirect_uri')).toBe(`${PUBLIC_URL}/auth/login/test/callback`);
    expect(params.get('response_type')).toBe('code');
    expect(params.get('scope')).toBe('openid email profile');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(params.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(cookies.map((cookie) => cookie.split('=')[0]).sort()).toEqual(['tessera_oidc_nonce', 'tessera_oidc_pkce', 'tessera_oidc_state']);
    // Encrypted: the state, nonce and verifier are not readable in them.
    for (const cookie of cookies) expect(cookie).not.toContain(params.get('state')!);
  });

  it('sets the state, PKCE and nonce cookies httpOnly, SameSite=Lax, for 900 seconds', async () => {
    const before = Date.now();
    const response = await t.request.get('/auth/login/test').expect(302);
    for (const name of ['tessera_oidc_state', 'tessera_oidc_pkce', 'tessera_oidc_nonce']) {
      const header = setCookieHeader(response, name)!;
      expect(header).toMatch(/; httponly/i);
      expect(header).toMatch(/; samesite=lax/i);
      const expires = Date.parse(/expires=([^;]+)/i.exec(header)![1]!);
      expect(expires - before).toBeGreaterThan(898_000);
      expect(expires - before).toBeLessThanOrEqual(901_000);
    }
  });

  it('completes the flow: creates the user, starts a session cookie, redirects, and /users/me works', async () => {
    const { authorizationUrl, cookies } = await startSignIn(t, `/auth/login/test?redirect=${encodeURIComponent(`${PUBLIC_URL}/admin/content`)}`);
    const callback = await provider.signIn(authorizationUrl.href, 'alice');
    expect(callback.pathname).toBe('/auth/login/test/callback');
    const response = await deliverCallback(t, callback, cookies).expect(302);
    expect(response.headers.location).toBe(`${PUBLIC_URL}/admin/content`);

    // The request cookies are cleared, the session cookie is set.
    for (const name of ['tessera_oidc_state', 'tessera_oidc_pkce', 'tessera_oidc_nonce']) expect(setCookieHeader(response, name)).toMatch(/^[a-z_]+=;.*expires=Thu, 01 Jan 1970/i);
    const session = cookiesOf(response).filter((cookie) => cookie.startsWith('tessera_session_token'));
    expect(session.length).toBeGreaterThan(0);

    const me = await t.request.get('/users/me').set('Cookie', session.join('; ')).expect(200);
    const user = await t.system.db.selectFrom('tessera_users').selectAll().where('email', '=', 'alice@example.test').executeTakeFirstOrThrow();
    expect(me.body.data.id).toBe(user.id);
    expect(me.body.data.auth_data === undefined || me.body.data.auth_data === '**********').toBe(true);
    expect(user).toMatchObject({ provider: 'test', external_identifier: 'alice', status: 'active', first_name: 'User', last_name: 'alice', password: null, role: null });
    const { refresh_token } = user.auth_data as { refresh_token: string };
    expect(refresh_token).toMatch(/^[\w-]{20,}$/);
    expect(JSON.stringify(me.body)).not.toContain(refresh_token);
  });

  it('signs the same identity in again as the same user', async () => {
    const count = async () => Number((await t.system.db.selectFrom('tessera_users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const first = await startSignIn(t, '/auth/login/test');
    await deliverCallback(t, await provider.signIn(first.authorizationUrl.href, 'repeat'), first.cookies).expect(302);
    const users = await count();
    const second = await startSignIn(t, '/auth/login/test');
    await deliverCallback(t, await provider.signIn(second.authorizationUrl.href, 'repeat'), second.cookies).expect(302);
    expect(await count()).toBe(users);
  });

  it('links an existing user by provider + external identifier, whatever e-mail the provider now reports', async () => {
    const existing = await t.system.db
      .insertInto('tessera_users')
      .values({ email: 'bob@corp.example', provider: 'test', external_identifier: 'bob', status: 'active', role: editorRole })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { authorizationUrl, cookies } = await startSignIn(t, '/auth/login/test');
    const response = await deliverCallback(t, await provider.signIn(authorizationUrl.href, 'bob'), cookies).expect(302);
    const me = await t.request.get('/users/me').set('Cookie', cookiesOf(response).join('; ')).expect(200);
    expect(me.body.data.id).toBe(existing.id);
    const bob = await t.system.db.selectFrom('tessera_users').select('email').where('id', '=', existing.id).executeTakeFirstOrThrow();
    expect(bob.email).toBe('bob@corp.example');
  });

  it('gives new users the default role when one is configured', async () => {
    const env = { PUBLIC_URL, AUTH_PROVIDERS: 'test', ...providerEnv('test', provider.issuer, { ALLOW_PUBLIC_REGISTRATION: 'true', DEFAULT_ROLE_ID: editorRole }) };
    const other = await createTestApp(env);
    try {
      const role = await other.system.db.insertInto('tessera_roles').values({ id: editorRole, name: 'Editor', app_access: true, admin_access: false }).returning('id').executeTakeFirstOrThrow();
      const { authorizationUrl, cookies } = await startSignIn(other, '/auth/login/test');
      await deliverCallback(other, await provider.signIn(authorizationUrl.href, 'carol'), cookies).expect(302);
      const user = await other.system.db.selectFrom('tessera_users').select(['role', 'status']).where('external_identifier', '=', 'carol').executeTakeFirstOrThrow();
      expect(user).toEqual({ role: role.id, status: 'active' });
    } finally {
      await other.close();
    }
  });

  it('goes to PUBLIC_URL/admin when no redirect is given', async () => {
    const { authorizationUrl, cookies } = await startSignIn(t, '/auth/login/test');
    const response = await deliverCallback(t, await provider.signIn(authorizationUrl.href, 'dave'), cookies).expect(302);
    expect(response.headers.location).toBe(`${PUBLIC_URL}/admin`);
  });

  it('accepts a relative redirect on PUBLIC_URL and refuses a foreign or malformed one with 400 naming redirect', async () => {
    const relative = await t.request.get('/auth/login/test?redirect=/admin/users').expect(302);
    expect(relative.headers.location).toContain(provider.issuer);
    for (const redirect of ['https://evil.example/steal', '//evil.example/x', 'javascript:alert(1)', 'not a url']) {
      const response = await t.request.get(`/auth/login/test?redirect=${encodeURIComponent(redirect)}`).expect(400);
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_QUERY', field: 'redirect' });
      expect(setCookieHeader(response, 'tessera_oidc_state')).toBeUndefined();
    }
  });

  it('answers 404 for a provider that is not configured', async () => {
    const response = await t.request.get('/auth/login/nope').expect(404);
    expect(response.body.errors[0].extensions.code).toBe('ROUTE_NOT_FOUND');
    await t.request.get('/auth/login/nope/callback?code=x&state=y').expect(404);
  });
});

describe('OpenID Connect redirect allow-list', () => {
  let provider: TestOidcProvider;
  let t: TestApp;
  beforeAll(async () => {
    provider = await startOidcProvider(redirectUrisFor(['test']));
    t = await createTestApp({ PUBLIC_URL, AUTH_PROVIDERS: 'test', ...providerEnv('test', provider.issuer, { ALLOW_PUBLIC_REGISTRATION: 'true', REDIRECT_ALLOW_LIST: 'https://app.example/signed-in' }) });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  it('sends the browser to an allow-listed page after signing in, and refuses other pages of that site', async () => {
    const target = 'https://app.example/signed-in?tab=1';
    const { authorizationUrl, cookies } = await startSignIn(t, `/auth/login/test?redirect=${encodeURIComponent(target)}`);
    const response = await deliverCallback(t, await provider.signIn(authorizationUrl.href, 'erin'), cookies).expect(302);
    expect(response.headers.location).toBe(target);
    await t.request.get(`/auth/login/test?redirect=${encodeURIComponent('https://app.example/elsewhere')}`).expect(400);
  });
});
