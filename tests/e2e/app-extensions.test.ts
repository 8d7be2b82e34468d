import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from './harness.ts';

/**
 * Admin extensions loaded at run time (tests/integration/extensions/fixtures): an interface (stars, with
 * antd's Rate and a relative import), a display (a badge), an interface from a bundle, and a module with its
 * own page and menu entry that reads items through the SDK as the signed-in user.
 */
const FIXTURES = fileURLToPath(new URL('../integration/extensions/fixtures', import.meta.url));

let harness: AdminHarness;
let token: string;
const api = (method: ApiMethod, path: string, body?: object) => callApi(harness, token, method, path, body);

beforeAll(async () => {
  harness = await startAdmin({ EXTENSIONS_PATH: FIXTURES });
  token = await harness.app.login();
  await api('post', '/collections', {
    collection: 'reviews',
    fields: [
      { field: 'title', type: 'string', meta: { interface: 'input' } },
      { field: 'score', type: 'integer', meta: { interface: 'rating', display: 'badge', options: { max: 5 } } },
      { field: 'code', type: 'string', meta: { interface: 'kit-input' } },
    ],
  });
  // The module reads `books`.
  await api('post', '/collections', { collection: 'books', fields: [{ field: 'title', type: 'string' }] });
  await api('post', '/items/books', [{ title: 'First to read' }, { title: 'Second to read' }]);
});
afterAll(async () => {
  await harness?.close();
});

it("edits a field with an extension's interface, shows it with an extension's display, and opens an extension's module", async () => {
  const page = await harness.newPage();
  await harness.signIn(page);
  await page.goto('/admin/content/reviews/+');
  await page.locator('#field-title').fill('A fine book');
  // The interface of the extension, not the built-in number input.
  const rating = page.getByTestId('rating-interface');
  await rating.waitFor();
  expect(await page.getByTestId('field-score').locator('.ant-input-number').count()).toBe(0);
  await rating.locator('.ant-rate-star').nth(3).click();
  await page.getByTestId('kit-input').fill('K-42');
  await harness.screenshot(page, 'app-extension-interface');
  await page.getByTestId('save-item').click();
  await page.getByTestId('item-title').filter({ hasText: 'A fine book' }).waitFor();
  const [saved] = await api('get', '/items/reviews?fields=title,score,code');
  expect(saved).toEqual({ title: 'A fine book', score: 4, code: 'K-42' });

  // The list shows the score with the extension's display.
  await page.goto('/admin/content/reviews');
  await expect.poll(() => page.getByTestId('badge-display').first().textContent()).toBe('★ 4');

  // The module: a menu entry and a page of its own, reading through the SDK.
  const entry = page.locator('.ant-layout-sider').getByTestId('nav-extension-reading-list');
  await entry.click();
  await page.waitForURL((url) => url.pathname === '/admin/modules/reading-list');
  await page.getByTestId('reading-list').waitFor();
  expect(await page.getByTestId('reading-list-item').allTextContents()).toEqual(['First to read', 'Second to read']);
  await harness.screenshot(page, 'app-extension-module');

  // Opened directly (a reload), the module's page waits for the extensions and then shows.
  await page.goto('/admin/modules/reading-list');
  await page.getByTestId('reading-list').waitFor();
  await page.goto('/admin/modules/no-such-module');
  await page.getByTestId('extension-module-missing').waitFor();
});

it('switching an admin extension off takes its interface away on the next page load', async () => {
  const [rating] = (await api('get', '/extensions')).filter((extension: { schema: { name: string } | null }) => extension.schema?.name === 'app-rating');
  await api('patch', `/extensions/${rating.id}`, { meta: { enabled: false } });
  try {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/content/reviews/+');
    await page.getByTestId('kit-input').waitFor();
    expect(await page.getByTestId('rating-interface').count()).toBe(0);
    await page.getByTestId('field-score').locator('.ant-input-number').waitFor();
  } finally {
    await api('patch', `/extensions/${rating.id}`, { meta: { enabled: true } });
  }
});
