import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN } from '../helpers/test-app.ts';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from './harness.ts';

let harness: AdminHarness;
let token: string;
const EDITOR = { email: 'secure-editor@example.com', password: 'secure-editor-password-1' };

const api = (method: ApiMethod, path: string, body?: object) => callApi(harness, token, method, path, body);

const tfaSecretOf = async (email: string) => (await harness.app.system.db.selectFrom('tessera_users').select('tfa_secret').where('email', '=', email).executeTakeFirstOrThrow()).tfa_secret as string | null;

/** Sets TFA up on the open set-up form: password, then the code the app would show for the secret on screen. */
async function setUpTfa(page: Page, password: string): Promise<string> {
  await page.getByTestId('tfa-password').fill(password);
  await page.getByTestId('tfa-generate').click();
  await page.getByTestId('tfa-qr').waitFor();
  const secret = (await page.getByTestId('tfa-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{16,}=*$/);
  await page.getByTestId('tfa-otp').fill(await generate({ secret }));
  await page.getByTestId('tfa-enable').click();
  return secret;
}

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  const role = await api('post', '/roles', { name: 'Secure editors', app_access: true, enforce_tfa: true });
  await api('post', '/users', { ...EDITOR, role: role.id, status: 'active' });
});
afterAll(async () => {
  await harness?.close();
});

describe('two-factor authentication in the admin', () => {
  it('leads a user whose role enforces TFA through set-up after sign-in, then into the app', async () => {
    const page = await harness.newPage();
    await page.goto('/admin/login');
    await page.getByLabel('E-mail').fill(EDITOR.email);
    await page.getByLabel('Password', { exact: true }).fill(EDITOR.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByTestId('tfa-required').waitFor();
    // A wrong password is said on the form, and nothing is stored.
    await page.getByTestId('tfa-password').fill('not-the-password');
    await page.getByTestId('tfa-generate').click();
    await page.getByTestId('tfa-error').waitFor();
    await harness.screenshot(page, 'tfa-required');
    await setUpTfa(page, EDITOR.password);
    await page.getByTestId('user-menu').waitFor();
    expect(await tfaSecretOf(EDITOR.email)).not.toBeNull();

    await page.goto('/admin/account');
    await expect.poll(() => page.getByTestId('tfa-status').textContent(), { timeout: 60_000 }).toBe('On');
    // The role requires it: no way to turn it off here.
    expect(await page.getByTestId('tfa-disable').count()).toBe(0);
  });

  it('turns TFA on and off from the account screen, reached from the user menu', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Your account' }).click();
    await page.waitForURL(/\/admin\/account$/);
    await expect.poll(() => page.getByTestId('tfa-status').textContent(), { timeout: 60_000 }).toBe('Off');
    const secret = await setUpTfa(page, TEST_ADMIN.password);
    await expect.poll(() => page.getByTestId('tfa-status').textContent(), { timeout: 60_000 }).toBe('On');
    await harness.screenshot(page, 'account-tfa-on');

    // The code that turned it on cannot be used again; the next step's code can (docs/auth.md).
    await page.getByTestId('tfa-disable-otp').fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await page.getByTestId('tfa-disable').click();
    await expect.poll(() => page.getByTestId('tfa-status').textContent(), { timeout: 60_000 }).toBe('Off');
    expect(await tfaSecretOf(TEST_ADMIN.email)).toBeNull();
  });
});
