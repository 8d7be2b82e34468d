import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from './harness.ts';
import { choose } from './modules/insights-helpers.ts';

/**
 * The admin starters of `tessera extensions create`, built by `tessera extensions build` and loaded by the
 * admin at run time: a layout chosen on a collection page (and remembered), a panel on a dashboard that reads
 * its data with the SDK, and a module.
 */
let project: string;
let harness: AdminHarness;
let token: string;
const api = (method: ApiMethod, url: string, body?: object) => callApi(harness, token, method, url, body);

beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), 'tessera-app-starters-'));
  const extensions = path.join(project, 'extensions');
  const env = { EXTENSIONS_PATH: extensions, SECRET: 'test-secret-that-is-long-enough-0123456789' };
  for (const [kind, name] of [['layout', 'board'], ['panel', 'item-count'], ['module', 'hello']]) {
    const created = await runCli(['extensions', 'create', kind!, name!], { cwd: project, env });
    if (created.code !== 0) throw new Error(`create ${kind} failed: ${created.stderr}`);
  }
  harness = await startAdmin({ EXTENSIONS_PATH: extensions });
  token = await harness.app.login();
  await api('post', '/collections', { collection: 'books', fields: [{ field: 'title', type: 'string', meta: { interface: 'input' } }] });
  await api('post', '/items/books', [{ title: 'Dune' }, { title: 'Emma' }, { title: 'Ulysses' }]);
});
afterAll(async () => {
  await harness?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

it("shows a collection with an extension's layout, remembers the choice, and opens an item from it", async () => {
  const page = await harness.newPage();
  await harness.signIn(page);
  await page.goto('/admin/content/books');
  await page.getByTestId('layout-tabular').locator('.ant-table-row').first().waitFor();
  // The switcher lists the built-in table and the extension's layout (no geometry field: no map).
  await page.getByTestId('layout-option-board').click();
  const board = page.getByTestId('layout-board').getByTestId('board');
  await board.waitFor();
  await expect.poll(() => board.getByTestId('board-item').allTextContents()).toEqual(['Dune', 'Emma', 'Ulysses']);
  expect(await page.getByTestId('layout-switch').getByText('Map', { exact: true }).count()).toBe(0);
  // The search of the page applies: the layout gets the items the page read.
  await page.getByTestId('search').fill('Emma');
  await page.getByTestId('search').press('Enter');
  await expect.poll(() => board.getByTestId('board-item').allTextContents()).toEqual(['Emma']);
  await harness.screenshot(page, 'extension-layout');

  // The choice is saved with the view (tessera_presets.layout): a fresh visit opens the board again.
  await expect.poll(async () => ((await api('get', '/presets?filter[collection][_eq]=books&fields=layout')) as Array<{ layout: string }>).map((row) => row.layout)).toEqual(['board']);
  await page.goto('/admin/content/books');
  await board.waitFor();
  await board.getByTestId('board-item').filter({ hasText: 'Emma' }).click();
  await page.waitForURL((url) => /\/admin\/content\/books\/\d+$/.test(url.pathname));
});

it("adds an extension's panel to a dashboard; it reads its data with the SDK as the signed-in user", async () => {
  const dashboard = (await api('post', '/dashboards', { name: 'Library', icon: 'dashboard' })) as { id: string };
  const page = await harness.newPage();
  await harness.signIn(page);
  await page.goto(`/admin/insights/${dashboard.id}`);
  await page.getByTestId('dashboard-title').getByText('Library').waitFor();
  await page.getByTestId('dashboard-edit').click();
  await page.getByTestId('panel-add').click();
  await page.getByTestId('panel-form').waitFor();
  await choose(page, page.getByTestId('panel-type'), 'Item count');
  // The editor shows the settings the definition lists, and previews the panel itself.
  await choose(page, page.getByTestId('panel-option-collection'), 'Books');
  await page.getByTestId('panel-option-label').fill('Books on the shelf');
  await expect.poll(() => page.getByTestId('panel-preview').locator('[data-testid="item-count"] .ant-statistic-content-value').textContent()).toBe('3');
  await page.getByTestId('panel-save').click();
  await page.getByTestId('panel-form').waitFor({ state: 'detached' });
  await page.getByTestId('dashboard-done').click();

  const [panel] = (await api('get', `/panels?filter[dashboard][_eq]=${dashboard.id}&fields=*`)) as Array<Record<string, any>>;
  expect(panel).toMatchObject({ type: 'item-count', options: { collection: 'books', label: 'Books on the shelf' }, width: 6, height: 4 });
  const content = page.getByTestId(`panel-content-${panel!.id}`);
  await expect.poll(() => content.locator('.ant-statistic-title').textContent()).toBe('Books on the shelf');
  await expect.poll(() => content.locator('.ant-statistic-content-value').textContent()).toBe('3');
  // The server computes nothing for it.
  expect(((await api('get', `/dashboards/${dashboard.id}/data`)) as Record<string, unknown>)[panel!.id]).toEqual({});
  await harness.screenshot(page, 'extension-panel');
  await page.reload();
  await expect.poll(() => page.getByTestId(`panel-content-${panel!.id}`).locator('.ant-statistic-content-value').textContent()).toBe('3');
});

it("opens the starter's module from its menu entry", async () => {
  const page = await harness.newPage();
  await harness.signIn(page);
  await page.locator('.ant-layout-sider').getByTestId('nav-extension-hello').click();
  await page.waitForURL((url) => url.pathname === '/admin/modules/hello');
  await page.getByTestId('hello').getByText('Hello').waitFor();
});
