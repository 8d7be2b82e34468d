import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngImage } from '../../helpers/images.ts';
import { startAdmin, type AdminHarness } from '../harness.ts';

let harness: AdminHarness;
beforeAll(async () => {
  harness = await startAdmin();
});
afterAll(async () => {
  await harness?.close();
});

describe('settings', () => {
  it('saves the project name (shown in the header), policy, attempts and a validated asset preset', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.getByTestId('nav-module-settings').click();
    await page.getByTestId('settings-title').waitFor();
    await expect.poll(() => page.getByTestId('settings-project-name').inputValue()).toBe('Tessera');

    await page.getByTestId('settings-project-name').fill('Acme Newsroom');
    await page.getByLabel('Login attempts').fill('');
    await page.getByTestId('preset-add').click();
    await page.getByTestId('preset-0-key').fill('Thumb 200');
    await page.getByTestId('settings-save').click();
    // Slug-like key and non-null sizes (SPEC §5): refused in the form, nothing saved.
    await page.getByText('Use lowercase letters, digits, hyphens and underscores.').waitFor();
    expect(await page.getByText('This is required.').count()).toBeGreaterThanOrEqual(2);
    await harness.screenshot(page, 'settings-preset-errors');

    await page.getByTestId('preset-0-key').fill('thumb-200');
    await page.getByTestId('preset-0').getByLabel('Width').fill('200');
    await page.getByTestId('preset-0').getByLabel('Height').fill('150');
    await page.getByTestId('settings-save').click();
    await page.getByText('Acme Newsroom').first().waitFor();

    const token = await harness.app.login();
    await expect.poll(async () => (await harness.app.request.get('/settings').set('Authorization', `Bearer ${token}`)).body.data).toMatchObject({
      project_name: 'Acme Newsroom',
      auth_login_attempts: null,
      storage_asset_presets: [{ key: 'thumb-200', fit: 'contain', width: 200, height: 150, quality: 80, withoutEnlargement: false }],
    });
    // The header's brand reads the new name.
    await page.locator('.ant-layout-sider').getByText('Acme Newsroom').waitFor();
    await harness.screenshot(page, 'settings');
  });

  it('sets the logo from the file library: the brand shows it, on the sign-in page too (the project logo is public)', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.getByTestId('nav-module-settings').click();
    await page.getByTestId('settings-title').waitFor();
    const logo = page.getByTestId('file-field-project_logo');
    await logo.getByTestId('file-choose').click();
    await page.locator('.ant-modal').getByTestId('file-browser').locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await pngImage(128, 128, '#e35169') });
    await logo.getByTestId('file-thumbnail').waitFor();
    await page.getByTestId('settings-save').click();
    const token = await harness.app.login();
    await expect.poll(async () => (await harness.app.request.get('/settings?fields=project_logo.filename_download').set('Authorization', `Bearer ${token}`)).body.data.project_logo).toEqual({ filename_download: 'logo.png' });
    await page.locator('.ant-layout-sider').getByTestId('brand-logo').waitFor();

    const visitor = await harness.newPage();
    await visitor.goto('/admin/login');
    await visitor.getByRole('heading', { name: 'Sign in' }).waitFor();
    const visitorLogo = visitor.getByTestId('brand-logo');
    await visitorLogo.waitFor();
    await expect.poll(() => visitorLogo.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    await visitor.getByText('Acme Newsroom').first().waitFor();
  });
});
