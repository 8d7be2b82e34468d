import { randomUUID } from 'node:crypto';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveKey } from '../../server/auth/secret-keys.ts';
import { newTotpSecret } from '../../server/auth/tfa-otp.ts';
import { encryptTfaSecret } from '../../server/auth/tfa-secret-crypto.ts';
import { UsersService } from '../../server/services/users-service.ts';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.ts';
import { linkIn, startSesEmulator, type SesEmulator } from '../helpers/ses-emulator.ts';
import { TEST_ADMIN } from '../helpers/test-app.ts';
import { freePort, startAdmin, type AdminHarness } from './harness.ts';

/**
 * The sign-in page's other methods, end to end in the browser: an e-mail link (mailed through the SES
 * emulator, opened from the mail) and an OpenID Connect provider (a real oidc-provider, its development
 * login and consent pages filled in the browser).
 */
let harness: AdminHarness;
let ses: SesEmulator;
let provider: TestOidcProvider;
const editorRole = randomUUID();

beforeAll(async () => {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  ses = await startSesEmulator();
  provider = await startOidcProvider([`${baseUrl}/auth/login/acme/callback`, `${baseUrl}/auth/callback/acme`]);
  harness = await startAdmin(
    {
      ...ses.env,
      AUTH_PROVIDERS: 'acme',
      AUTH_ACME_ISSUER_URL: provider.issuer,
      AUTH_ACME_CLIENT_ID: provider.clientId,
      AUTH_ACME_CLIENT_SECRET: provider.clientSecret,
      AUTH_ACME_SCOPE: 'openid email profile',
      AUTH_ACME_LABEL: 'Acme ID',
      AUTH_ACME_ALLOW_PUBLIC_REGISTRATION: 'true',
      AUTH_ACME_DEFAULT_ROLE_ID: editorRole,
    },
    port,
  );
  await harness.app.system.db.insertInto('tessera_roles').values({ id: editorRole, name: 'Editor', app_access: true, admin_access: false }).execute();
});
afterAll(async () => {
  await harness?.close();
  await provider?.close();
  await ses?.close();
});

describe('signing in with an e-mail link or an OpenID provider', () => {
  it('mails a sign-in link; opening it from the mail ends signed in', async () => {
    const page = await harness.newPage();
    await page.goto('/admin/login');
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await page.getByLabel('E-mail').fill(TEST_ADMIN.email);
    await page.getByRole('button', { name: 'Send link' }).click();
    await page.getByText('A sign in link has been sent to your email address.').waitFor();
    await harness.screenshot(page, 'sign-in-email-link-sent');

    const [mail] = await ses.waitForEmails(TEST_ADMIN.email);
    expect(mail, 'the sign-in mail').toBeDefined();
    const link = linkIn(mail!);
    expect(link.pathname).toBe('/auth/callback/email');

    await page.goto(link.href);
    await page.getByTestId('user-menu').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/admin/);
    await page.getByTestId('user-menu').click();
    await page.getByText(TEST_ADMIN.email).first().waitFor();
  });

  it('asks a user with two-factor authentication for the code after the link, before signing in', async () => {
    const email = 'two-factor@example.com';
    const secret = newTotpSecret();
    const id = await new UsersService(harness.app.system).createOne({ email, password: 'two-factor-pass-1' });
    await harness.app.system.db.updateTable('tessera_users').set({ tfa_secret: encryptTfaSecret(secret, deriveKey(harness.app.context.config.secret, 'tfa-secret'), id) }).where('id', '=', id).execute();
    const page = await harness.newPage();
    await page.goto('/admin/login');
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send link' }).click();
    await page.getByText('A sign in link has been sent to your email address.').waitFor();
    const [mail] = await ses.waitForEmails(email);

    await page.goto(linkIn(mail!).href);
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    await harness.screenshot(page, 'sign-in-email-link-otp');
    await page.getByLabel('One-time password').fill(await generate({ secret }));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('user-menu').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/admin/);
  });

  it('signs in through the OpenID provider button: a new user in the default role, signed in to the admin', async () => {
    const page = await harness.newPage();
    await page.goto('/admin/login');
    const button = page.getByTestId('provider-acme');
    await expect(button.textContent()).resolves.toBe('Sign in with Acme ID');
    await harness.screenshot(page, 'sign-in-providers');
    await button.click();

    // The provider's development login page, then its consent page.
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.locator('input[name="login"]').fill('marta');
    await page.locator('input[name="password"]').fill('any-password');
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]', { hasText: /continue/i }).click();

    await page.waitForURL((url) => url.origin === harness.baseUrl && url.pathname.startsWith('/admin'));
    await page.getByTestId('user-menu').waitFor();
    const user = await harness.app.system.db.selectFrom('tessera_users').select(['email', 'provider', 'role', 'status']).where('external_identifier', '=', 'marta').executeTakeFirstOrThrow();
    expect(user).toEqual({ email: 'marta@example.test', provider: 'acme', role: editorRole, status: 'active' });
    await page.getByTestId('user-menu').click();
    await page.getByText('marta@example.test').first().waitFor();
  });
});
