import { fileURLToPath } from 'node:url';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectNoEnglish } from './english-leaks.ts';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from './harness.ts';

/** The integration tests' extension folders: a hook, an endpoint, a bundle, one that throws, one for another host version … */
const FIXTURES = fileURLToPath(new URL('../integration/extensions/fixtures', import.meta.url));
const SECOND_ADMIN = { email: 'second-admin@example.com', password: 'second-admin-password-1' };

let harness: AdminHarness;
let token: string;
let secondAdminRole: string;

const api = (method: ApiMethod, path: string, body?: object) => callApi(harness, token, method, path, body);
const greetStatus = async () => (await harness.app.request.get('/greet')).status;

beforeAll(async () => {
  harness = await startAdmin({ EXTENSIONS_PATH: FIXTURES });
  token = await harness.app.login();
  secondAdminRole = (await api('post', '/roles', { name: 'Second administrators', admin_access: true, app_access: true })).id;
  await api('post', '/users', { ...SECOND_ADMIN, role: secondAdminRole, status: 'active' });
});
afterAll(async () => {
  await harness?.close();
});

/**
 * Holds the next PATCH of /extensions/<id> in the browser until `release()` is called, then lets it go to
 * the real server unchanged: the screen can be looked at while the switch is saving.
 */
async function holdNextPatch(page: Page): Promise<{ held: Promise<void>; release(): Promise<void> }> {
  let heldRoute: (route: Route) => void;
  const arrived = new Promise<Route>((resolve) => (heldRoute = resolve));
  const matcher = (url: URL) => url.pathname.startsWith('/extensions/');
  await page.route(matcher, (route) => (route.request().method() === 'PATCH' ? heldRoute(route) : route.continue()));
  return {
    held: arrived.then(() => undefined),
    async release() {
      await (await arrived).continue();
      await page.unroute(matcher);
    },
  };
}

it('lists every extension with its type, version, source and load status, and switches an endpoint off and on', async () => {
  const page = await harness.newPage();
  await harness.signIn(page);
  const menu = page.locator('.ant-layout-sider');
  await menu.getByTestId('nav-module-extensions').waitFor();
  // Settings → Extensions.
  await menu.getByTestId('nav-module-settings').click();
  await page.getByTestId('settings-extensions-link').click();
  await page.waitForURL((url) => url.pathname === '/admin/settings/extensions');
  await page.getByTestId('extensions-title').waitFor();

  await expect.poll(() => page.getByTestId('extension-status-hook-audit').textContent()).toBe('Loaded');
  const hookRow = page.getByTestId('extension-row-hook-audit');
  expect(await hookRow.getByTestId('extension-type-hook-audit').textContent()).toBe('Hook');
  expect(await hookRow.getByText('1.2.0', { exact: true }).count()).toBe(1);
  expect(await hookRow.getByText('Extensions folder', { exact: true }).count()).toBe(1);
  expect(await page.getByTestId('extension-status-broken-hook').textContent()).toBe('Failed to load');
  expect(await page.getByTestId('extension-error-broken-hook').textContent()).toBe('broken on purpose');
  expect(await page.getByTestId('extension-status-future-host').textContent()).toBe('Incompatible');
  expect(await page.getByTestId('extension-error-future-host').textContent()).toMatch(/needs Directus \^99\.0\.0/);
  // No manifest: no schema, so the folder names it.
  expect(await page.getByTestId('extension-type-no-manifest').textContent()).toBe('Unknown');
  // A loaded extension shows no error line.
  expect(await page.getByTestId('extension-error-hook-audit').count()).toBe(0);

  // The bundle's entries sit under it, one level down, right after it.
  const order = await page.locator('[data-testid^="extension-row-"]').evaluateAll((rows) => rows.map((row) => `${(row as unknown as { dataset: Record<string, string> }).dataset.testid}:${(row as unknown as { className: string }).className.match(/ant-table-row-level-(\d)/)?.[1]}`));
  const bundleAt = order.indexOf('extension-row-bundle-kit:0');
  expect(bundleAt).toBeGreaterThanOrEqual(0);
  expect(order.slice(bundleAt, bundleAt + 4)).toEqual(['extension-row-bundle-kit:0', 'extension-row-kit-api:1', 'extension-row-kit-hook:1', 'extension-row-kit-input:1']);
  expect(await page.getByTestId('extension-type-bundle-kit').textContent()).toBe('Bundle');
  expect(await page.getByTestId('extension-type-kit-api').textContent()).toBe('Endpoint');
  await harness.screenshot(page, 'extensions-list');

  // Off: the switch is disabled while the PATCH is on its way, then shows the server's answer.
  expect(await greetStatus()).toBe(200);
  const toggle = page.getByTestId('extension-enabled-endpoint-greet');
  expect(await toggle.getAttribute('aria-checked')).toBe('true');
  const hold = await holdNextPatch(page);
  await toggle.click();
  await hold.held;
  expect(await toggle.isDisabled()).toBe(true);
  const answered = page.waitForResponse((response) => response.request().method() === 'PATCH' && new URL(response.url()).pathname.startsWith('/extensions/'));
  await hold.release();
  expect((await answered).status()).toBe(200);
  await expect.poll(() => toggle.isDisabled()).toBe(false);
  expect(await toggle.getAttribute('aria-checked')).toBe('false');
  expect(await page.getByTestId('extension-status-endpoint-greet').textContent()).toBe('Disabled');
  expect(await greetStatus()).toBe(404);
  expect((await api('get', '/extensions')).find((extension: { schema: { name: string } | null }) => extension.schema?.name === 'endpoint-greet').meta.enabled).toBe(false);

  // On again.
  await toggle.click();
  await expect.poll(() => page.getByTestId('extension-status-endpoint-greet').textContent()).toBe('Loaded');
  expect(await toggle.getAttribute('aria-checked')).toBe('true');
  expect(await greetStatus()).toBe(200);
  expect((await harness.app.request.get('/greet')).text).toBe('Hello, World!');
});

it('shows a refused switch as an error and keeps the row as it was; someone no longer an administrator loses the menu entry', async () => {
  const page = await harness.newPage();
  await harness.signIn(page, SECOND_ADMIN.email, SECOND_ADMIN.password);
  await page.goto('/admin/settings/extensions');
  await expect.poll(() => page.getByTestId('extension-status-hook-audit').textContent()).toBe('Loaded');

  // Their role loses admin access while the screen is open: the server refuses the switch.
  await api('patch', `/roles/${secondAdminRole}`, { admin_access: false });
  const toggle = page.getByTestId('extension-enabled-hook-audit');
  const answered = page.waitForResponse((response) => response.request().method() === 'PATCH' && new URL(response.url()).pathname.startsWith('/extensions/'));
  await toggle.click();
  expect((await answered).status()).toBe(403);
  await page.getByTestId('extensions-toggle-error').getByText('"hook-audit" could not be disabled').waitFor();
  await expect.poll(() => toggle.isDisabled()).toBe(false);
  expect(await toggle.getAttribute('aria-checked')).toBe('true');
  expect((await api('get', '/extensions')).find((extension: { schema: { name: string } | null }) => extension.schema?.name === 'hook-audit').meta.enabled).toBe(true);

  // Signed in again as a non-administrator, even one whose role may read tessera_extensions (the API still
  // refuses): the other modules' entries show, this one does not, and the page says why.
  await api('post', '/permissions', { role: secondAdminRole, collection: 'tessera_extensions', action: 'read', fields: ['*'] });
  const again = await harness.newPage();
  await harness.signIn(again, SECOND_ADMIN.email, SECOND_ADMIN.password);
  const menu = again.locator('.ant-layout-sider');
  await menu.getByTestId('nav-module-activity').waitFor();
  expect(await menu.getByTestId('nav-module-extensions').count()).toBe(0);
  await again.goto('/admin/settings/extensions');
  await again.getByText('Only administrators can open this screen.').waitFor();
});

it('speaks Brazilian Portuguese with no English left', async () => {
  await api('patch', '/users/me', { language: 'pt-BR' });
  try {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/settings/extensions');
    await expect.poll(() => page.getByTestId('extension-status-hook-audit').textContent()).toBe('Carregada');
    expect(await page.getByTestId('extension-status-future-host').textContent()).toBe('Incompatível');
    expect(await page.locator('.ant-layout-sider').getByTestId('nav-module-extensions').textContent()).toBe('Extensões');
    await expectNoEnglish(page);
    await harness.screenshot(page, 'extensions-pt-BR');
  } finally {
    await api('patch', '/users/me', { language: null });
  }
});
