import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdmin, type AdminHarness } from './harness.ts';

/** The one browser API this file needs (the test project's types have no DOM). */
type BrowserWindow = { getComputedStyle(element: unknown): { backgroundColor: string } };

let harness: AdminHarness;
beforeAll(async () => {
  harness = await startAdmin();
});
afterAll(async () => {
  await harness?.close();
});

describe('signing in', () => {
  it('refuses wrong credentials with the spec text, then signs in and out', async () => {
    const page = await harness.newPage();
    await page.goto('/admin/');
    await page.waitForURL(/\/admin\/login/);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await harness.screenshot(page, 'sign-in');

    await page.getByLabel('E-mail').fill('admin@example.com');
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByTestId('sign-in-error').textContent()).resolves.toContain('Sign in failed. Check the details you provided are correct.');

    await page.getByLabel('Password', { exact: true }).fill('admin-password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/admin/login'));
    await page.getByTestId('user-menu').waitFor();
    expect(new URL(page.url()).pathname.startsWith('/admin')).toBe(true);
    // No collections yet: the administrator is pointed at the data model.
    await page.getByTestId('welcome-data-model').waitFor();
    await page.getByText('Admin User').waitFor();
    await harness.screenshot(page, 'home-empty');

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/admin\/login/);
    await page.goto('/admin/');
    await page.waitForURL(/\/admin\/login/);
  });

  it('shows the brand colour, the project name and the public note from the settings', async () => {
    await harness.app.request
      .patch('/settings')
      .set('Authorization', `Bearer ${await harness.app.login()}`)
      .send({ project_name: 'Acme Newsroom', project_color: '#E35169', public_note: 'Staff only.' })
      .expect(200);
    const page = await harness.newPage();
    await page.goto('/admin/login');
    await page.getByText('Acme Newsroom').first().waitFor();
    await expect(page.getByTestId('public-note').textContent()).resolves.toBe('Staff only.');
    const buttonColour = await page.getByRole('button', { name: 'Sign in', exact: true }).evaluate((button) => (globalThis as unknown as BrowserWindow).getComputedStyle(button).backgroundColor);
    expect(buttonColour).toBe('rgb(227, 81, 105)');
  });
});
