/**
 * The Directus REST client (`@directus/sdk`) in its cookie and session modes over real HTTP, with a fetch
 * that keeps cookies the way a browser does for a same-site app (`credentials: 'include'`).
 */
import { authentication, createDirectus, readMe, rest } from '@directus/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../../helpers/listen.ts';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';
import { CookieJar } from './sessions-cookie-jar.ts';

/** A fetch with a cookie jar; records the paths and bodies the SDK sent. */
function browserFetch(jar: CookieJar, sent: Array<{ path: string; body: unknown }>): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    if (jar.header()) headers.set('Cookie', jar.header());
    const response = await fetch(input, { ...init, headers });
    jar.store(response.headers.getSetCookie());
    sent.push({ path: new URL(String(input)).pathname, body: typeof init?.body === 'string' ? JSON.parse(init.body) : null });
    return response;
  };
}

describe('@directus/sdk in cookie and session modes', () => {
  let t: TestApp;
  let server: Listening;
  beforeAll(async () => {
    t = await createTestApp();
    server = await listen(t);
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });

  function client(mode: 'cookie' | 'session', jar: CookieJar, sent: Array<{ path: string; body: unknown }>) {
    return createDirectus(server.url, { globals: { fetch: browserFetch(jar, sent) } })
      .with(authentication(mode, { credentials: 'include', autoRefresh: false }))
      .with(rest({ credentials: 'include' }));
  }

  it('session mode: signs in with the cookie alone, refreshes and logs out', async () => {
    const jar = new CookieJar();
    const sent: Array<{ path: string; body: unknown }> = [];
    const sdk = client('session', jar, sent);
    const login = await sdk.login({ email: TEST_ADMIN.email, password: TEST_ADMIN.password });
    expect(login).toMatchObject({ expires: 2_592_000_000 });
    expect(login.access_token ?? null).toBeNull();
    const first = jar.get('tessera_session_token');
    expect(first).toBeDefined();

    expect((await sdk.request(readMe())).email).toBe(TEST_ADMIN.email);
    await sdk.refresh();
    expect(jar.get('tessera_session_token')).not.toBe(first);
    expect((await sdk.request(readMe())).email).toBe(TEST_ADMIN.email);

    await sdk.logout();
    expect(jar.get('tessera_session_token')).toBeUndefined();
    expect(sent.map((exchange) => exchange.path)).toEqual(['/auth/login', '/users/me', '/auth/refresh', '/users/me', '/auth/logout']);
    expect(sent[2]!.body).toEqual({ mode: 'session' });
  });

  it('cookie mode: the refresh token lives in the cookie, the access token in the client', async () => {
    const jar = new CookieJar();
    const sent: Array<{ path: string; body: unknown }> = [];
    const sdk = client('cookie', jar, sent);
    const login = await sdk.login({ email: TEST_ADMIN.email, password: TEST_ADMIN.password });
    expect(login.access_token).toEqual(expect.any(String));
    expect(login.refresh_token ?? null).toBeNull();
    const first = jar.get('tessera_refresh_token');
    expect(first).toBeDefined();

    expect((await sdk.request(readMe())).email).toBe(TEST_ADMIN.email);
    const refreshed = await sdk.refresh();
    expect(refreshed.access_token).not.toBe(login.access_token);
    expect(jar.get('tessera_refresh_token')).not.toBe(first);
    expect((await sdk.request(readMe())).email).toBe(TEST_ADMIN.email);

    await sdk.logout();
    expect(jar.get('tessera_refresh_token')).toBeUndefined();
    expect(sent[2]!.body).toEqual({ mode: 'cookie' });
  });
});
