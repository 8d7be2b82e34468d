import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLdapServer, PEOPLE_DN, person, SERVICE_DN, SERVICE_PASSWORD, type TestLdapServer } from '../integration/auth/ldap-server.ts';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.ts';
import { freePort, startAdmin, type AdminHarness } from './harness.ts';

/**
 * The configured sign-in providers in the admin: each is a button with its icon and label (a directory
 * opens its own form), a user's screen tells how they sign in, and Settings lists the providers.
 */
let harness: AdminHarness;
let ldap: TestLdapServer;
let provider: TestOidcProvider;

beforeAll(async () => {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  ldap = await startLdapServer();
  await ldap.add(...person('lena', 'lena-pass-1'));
  provider = await startOidcProvider([`${baseUrl}/auth/login/hub/callback`, `${baseUrl}/auth/callback/hub`]);
  harness = await startAdmin(
    {
      AUTH_PROVIDERS: 'hub,corp',
      AUTH_HUB_DRIVER: 'oauth2',
      AUTH_HUB_CLIENT_ID: provider.clientId,
      AUTH_HUB_CLIENT_SECRET: provider.clientSecret,
      AUTH_HUB_AUTHORIZE_URL: `${provider.issuer}/auth`,
      AUTH_HUB_ACCESS_URL: `${provider.issuer}/token`,
      AUTH_HUB_PROFILE_URL: `${provider.issuer}/me`,
      AUTH_HUB_SCOPE: 'openid email profile',
      AUTH_HUB_IDENTIFIER_KEY: 'sub',
      AUTH_HUB_LABEL: 'Hub',
      AUTH_HUB_ICON: 'github',
      AUTH_HUB_ALLOW_PUBLIC_REGISTRATION: 'true',
      AUTH_CORP_DRIVER: 'ldap',
      AUTH_CORP_CLIENT_URL: ldap.url,
      AUTH_CORP_BIND_DN: SERVICE_DN,
      AUTH_CORP_BIND_PASSWORD: SERVICE_PASSWORD,
      AUTH_CORP_USER_DN: PEOPLE_DN,
      AUTH_CORP_USER_ATTRIBUTE: 'uid',
      AUTH_CORP_LABEL: 'Corporate directory',
      AUTH_CORP_ICON: 'lan',
      AUTH_CORP_ALLOW_PUBLIC_REGISTRATION: 'true',
    },
    port,
  );
}, 300_000);
afterAll(async () => {
  await harness?.close();
  await provider?.close();
  await ldap?.close();
});

describe('sign-in providers in the admin', () => {
  it('shows each provider as a button with its icon and label; the directory button opens a form that signs in', async () => {
    const page = await harness.newPage();
    await page.goto('/admin/login');
    const hub = page.getByTestId('provider-hub');
    const corp = page.getByTestId('provider-corp');
    await expect(hub.textContent()).resolves.toBe('Sign in with Hub');
    await expect(corp.textContent()).resolves.toBe('Sign in with Corporate directory');
    await hub.locator('[aria-label="github"]').waitFor();
    await corp.locator('[aria-label="cluster"]').waitFor();
    await harness.screenshot(page, 'sign-in-provider-buttons');

    await corp.click();
    await page.getByLabel('User name').fill('lena');
    await page.getByLabel('Password').fill('wrong-pass');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByTestId('sign-in-error').waitFor();
    await page.getByLabel('Password').fill('lena-pass-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByTestId('user-menu').waitFor();
    const user = await harness.app.system.db.selectFrom('tessera_users').select(['provider', 'external_identifier']).where('email', '=', 'lena@directory.test').executeTakeFirstOrThrow();
    expect(user).toEqual({ provider: 'corp', external_identifier: `uid=lena,${PEOPLE_DN}` });
  });

  it('signs in through the OAuth 2.0 button', async () => {
    const page = await harness.newPage();
    await page.goto('/admin/login');
    await page.getByTestId('provider-hub').click();
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.locator('input[name="login"]').fill('otto');
    await page.locator('input[name="password"]').fill('any-password');
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]', { hasText: /continue/i }).click();
    await page.waitForURL((url) => url.origin === harness.baseUrl && url.pathname.startsWith('/admin'));
    await page.getByTestId('user-menu').waitFor();
  });

  it('tells on the user screen how a user signs in, and lists the providers read-only in Settings', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    const lena = await harness.app.system.db.selectFrom('tessera_users').select('id').where('email', '=', 'lena@directory.test').executeTakeFirstOrThrow();
    await page.goto(`/admin/users/${lena.id}`);
    const method = page.getByTestId('user-sign-in-method');
    await method.getByText('Corporate directory').waitFor();
    await method.getByText('(LDAP)').waitFor();
    await method.getByText(`uid=lena,${PEOPLE_DN}`).waitFor();
    await harness.screenshot(page, 'user-sign-in-method');

    await page.goto('/admin/settings');
    const providers = page.getByTestId('settings-sign-in-providers');
    await providers.getByText('Hub', { exact: true }).waitFor();
    await providers.getByText('OAuth 2.0').waitFor();
    await providers.getByText('Corporate directory', { exact: true }).waitFor();
    await providers.getByText('LDAP', { exact: true }).waitFor();
    expect(await providers.locator('input, button').count()).toBe(0);
  });
});
