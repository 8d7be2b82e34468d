import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngImage } from '../helpers/images.ts';
import type { Locator } from 'playwright-core';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from './harness.ts';

let harness: AdminHarness;
let token: string;
const images: Record<string, string> = {};

const api = (method: ApiMethod, path: string, body?: object) => callApi(harness, token, method, path, body);

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  for (const [name, colour] of [['foreground', '#e35169'], ['background', '#1c7ed6'], ['favicon', '#2f9e44']] as const) {
    const upload = await harness.app.request.post('/files').set('Authorization', `Bearer ${token}`).attach('file', await pngImage(64, 64, colour), `${name}.png`);
    images[name] = upload.body.data.id;
  }
  await api('patch', '/settings', {
    project_name: 'Acme Newsroom',
    project_descriptor: 'Editorial CMS',
    project_url: 'https://acme.example',
    public_foreground: images.foreground,
    public_background: images.background,
    public_favicon: images.favicon,
    report_bug_url: 'https://bugs.example/new?page={{ route }}&project={{ project }}',
    report_feature_url: 'https://ideas.example/new',
    report_error_url: 'https://bugs.example/new?title={{ error }}',
    module_bar: [
      { type: 'module', id: 'activity', enabled: true },
      { type: 'link', id: 'docs', name: 'Handbook', icon: 'book', url: 'https://handbook.example', enabled: true },
      { type: 'module', id: 'files', enabled: false },
      { type: 'module', id: 'settings', enabled: true },
    ],
    theme_light_overrides: { colorPrimary: '#0B7A75' },
  });
});
afterAll(async () => {
  await harness?.close();
});

/** A computed style of an element (the tests' TypeScript has no DOM types). */
function computedStyle(locator: Locator, property: string): Promise<string> {
  return locator.evaluate((element, name) => (globalThis as unknown as { getComputedStyle(node: unknown): Record<string, string> }).getComputedStyle(element)[name]!, property);
}

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)).join(', ')})`;

describe('settings the admin honours', () => {
  it('shows the foreground and background images and the favicon on the sign-in page', async () => {
    const page = await harness.newPage();
    await page.goto('/admin/login');
    const foreground = page.getByTestId('auth-foreground');
    await foreground.waitFor();
    await expect.poll(() => foreground.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth)).toBe(64);
    expect(await computedStyle(page.getByTestId('auth-page'), 'backgroundImage')).toContain(`/assets/${images.background}`);
    await expect.poll(() => page.locator('link[rel="icon"]').getAttribute('href')).toBe(`/assets/${images.favicon}`);
    await harness.screenshot(page, 'shell-sign-in');
  });

  it('shows the descriptor and project link, the help menu with filled URLs, the module bar and the theme overrides', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.getByTestId('project-descriptor').filter({ hasText: 'Editorial CMS' }).waitFor();
    expect(await page.getByTestId('project-url').getAttribute('href')).toBe('https://acme.example');
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe(`/assets/${images.favicon}`);

    // module_bar: activity first, then the link, files hidden, settings; users, roles, data model, webhooks, flows, insights, translations, extensions (not named) after.
    const menu = page.locator('.ant-layout-sider');
    await menu.getByTestId('nav-link-docs').waitFor();
    const order = await menu.locator('[data-testid^="nav-module-"], [data-testid^="nav-link-"]').evaluateAll((nodes) => nodes.map((node) => (node as unknown as { dataset: Record<string, string> }).dataset.testid));
    expect(order).toEqual(['nav-module-activity', 'nav-link-docs', 'nav-module-settings', 'nav-module-users', 'nav-module-roles', 'nav-module-collections', 'nav-module-webhooks', 'nav-module-flows', 'nav-module-dashboards', 'nav-module-translations', 'nav-module-extensions']);
    expect(await menu.getByTestId('nav-link-docs').getAttribute('href')).toBe('https://handbook.example');

    await page.getByTestId('nav-module-settings').click();
    await page.getByTestId('settings-title').waitFor();
    // The project's light overrides recolour antd's primary colour.
    await expect.poll(() => computedStyle(page.getByTestId('settings-save'), 'backgroundColor'), { timeout: 60_000 }).toBe(rgb('#0B7A75'));

    await page.getByTestId('help-menu').click();
    const bug = page.getByTestId('help-bug');
    await bug.waitFor();
    expect(await bug.getAttribute('href')).toBe('https://bugs.example/new?page=%2Fsettings&project=Acme%20Newsroom');
    expect(await page.getByTestId('help-feature').getAttribute('href')).toBe('https://ideas.example/new');
    await harness.screenshot(page, 'shell-signed-in');
  });

  it("applies the user's own theme overrides over the project's", async () => {
    await api('patch', '/users/me', { theme_light_overrides: { colorPrimary: '#AA3300' } });
    try {
      const page = await harness.newPage();
      await harness.signIn(page);
      await page.goto('/admin/settings');
      await page.getByTestId('settings-title').waitFor();
      await expect.poll(() => computedStyle(page.getByTestId('settings-save'), 'backgroundColor'), { timeout: 60_000 }).toBe(rgb('#AA3300'));
    } finally {
      await api('patch', '/users/me', { theme_light_overrides: null });
    }
  });

  it('edits the module bar in the settings screen: switches a module on, reorders, adds a link', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/settings');
    await page.getByTestId('settings-title').waitFor();
    await page.getByTestId('module-bar-2').getByText('Files').waitFor();
    await page.getByTestId('module-bar-2-enabled').click();
    await page.getByTestId('module-bar-2-up').click();
    await page.getByTestId('module-bar-add-link').click();
    const last = (await page.locator('[data-testid^="module-bar-"][data-testid$="-enabled"]').count()) - 1;
    await page.getByTestId(`module-bar-${last}-name`).fill('Status');
    await page.getByTestId(`module-bar-${last}-url`).fill('javascript:alert(1)');
    await page.getByTestId('settings-save').click();
    await page.getByText('Use an address starting with https://, http:// or /.').waitFor();
    await page.getByTestId(`module-bar-${last}-url`).fill('https://status.example');
    await harness.screenshot(page, 'shell-module-bar-editor');
    await page.getByTestId('settings-save').click();
    await expect.poll(async () => (await api('get', '/settings?fields=module_bar')).module_bar).toMatchObject([
      { type: 'module', id: 'activity', enabled: true },
      { type: 'module', id: 'files', enabled: true },
      { type: 'link', id: 'docs', name: 'Handbook', url: 'https://handbook.example', enabled: true },
      { type: 'module', id: 'settings', enabled: true },
      { type: 'module', id: 'users', enabled: true },
      { type: 'module', id: 'roles', enabled: true },
      { type: 'module', id: 'collections', enabled: true },
      { type: 'module', id: 'webhooks', enabled: true },
      { type: 'module', id: 'flows', enabled: true },
      { type: 'module', id: 'dashboards', enabled: true },
      { type: 'module', id: 'translations', enabled: true },
      { type: 'module', id: 'extensions', enabled: true },
      { type: 'link', name: 'Status', url: 'https://status.example', enabled: true },
    ]);
    // The menu follows without a reload.
    await page.locator('.ant-layout-sider').getByTestId('nav-module-files').waitFor();
    await page.locator('.ant-layout-sider').getByText('Status').waitFor();
  });

  it('shows the error screen with the report link, the error filled in, when a page fails to load', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.route(/\/admin\/assets\/activity-page-[^/]*\.js$/, (route) => route.fulfill({ status: 404, body: '' }));
    await page.getByTestId('nav-module-activity').click();
    const report = page.getByTestId('report-error');
    await report.waitFor();
    const href = new URL((await report.getAttribute('href'))!);
    expect(href.origin + href.pathname).toBe('https://bugs.example/new');
    expect(href.searchParams.get('title')).toMatch(/^TypeError: .*dynamically imported module/);
    await harness.screenshot(page, 'shell-error-screen');
  });

  it('records the page the user is on and opens it again after the next sign-in', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/users');
    await page.getByTestId('nav-module-users').waitFor();
    await expect.poll(async () => (await api('get', '/users/me?fields=last_page')).last_page).toBe('/users');

    const later = await harness.newPage();
    await harness.signIn(later);
    await later.waitForURL((url) => url.pathname === '/admin/users');
  });
});
