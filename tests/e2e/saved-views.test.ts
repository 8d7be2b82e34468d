import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from './harness.ts';

let harness: AdminHarness;
let token: string;
let adminId: string;
const EDITOR = { email: 'views-editor@example.com', password: 'views-editor-password-1' };

const api = (method: ApiMethod, path: string, body?: object) => callApi(harness, token, method, path, body);

const headers = (page: Page) => page.locator('.ant-table-thead th').evaluateAll((cells) => cells.map((cell) => ((cell as unknown as { textContent: string | null }).textContent ?? '').trim()).filter(Boolean));
async function firstTitle(page: Page): Promise<string | null> {
  const cells = await page.locator('.ant-table-thead th').evaluateAll((nodes) => nodes.map((node) => ((node as unknown as { textContent: string | null }).textContent ?? '').trim()));
  return page.locator('.ant-table-tbody tr.ant-table-row').first().locator('td').nth(cells.indexOf('Title')).textContent();
}

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  adminId = (await api('get', '/users/me?fields=id')).id;
  await api('post', '/collections', {
    collection: 'articles',
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      { field: 'title', type: 'string' },
      { field: 'status', type: 'string' },
    ],
  });
  await api('post', '/items/articles', [{ title: 'Alpha sale', status: 'draft' }, { title: 'Beta sale', status: 'published' }, { title: 'Gamma', status: 'draft' }]);
  const role = await api('post', '/roles', { name: 'Editors', app_access: true });
  await api('post', '/permissions', { role: role.id, collection: 'articles', action: 'read', fields: '*' });
  await api('post', '/users', { ...EDITOR, role: role.id, status: 'active' });
  // A global default: title and status only, newest first.
  await api('post', '/presets', { collection: 'articles', user: null, role: null, layout: 'tabular', layout_query: { tabular: { fields: ['title', 'status'], sort: ['-id'], limit: 25 } } });
});
afterAll(async () => {
  await harness?.close();
});

describe('saved views and bookmarks', () => {
  it('starts from the global default, then remembers the user\'s own view across reloads', async () => {
    const page = await harness.newPage();
    await harness.signIn(page, EDITOR.email, EDITOR.password);
    await page.goto('/admin/content/articles');
    await page.locator('.ant-table-row').first().waitFor();
    expect(await headers(page)).toEqual(['Title', 'Status']);
    expect(await firstTitle(page)).toBe('Gamma');

    await page.getByTestId('search').fill('sale');
    await page.getByTestId('search').press('Enter');
    await page.locator('.ant-table-thead th').filter({ hasText: 'Title' }).click();
    await expect.poll(() => firstTitle(page), { timeout: 60_000 }).toBe('Alpha sale');
    const editorId = (await api('get', `/users?filter[email][_eq]=${EDITOR.email}&fields=id`))[0].id;
    await expect.poll(async () => (await api('get', `/presets?filter[user][_eq]=${editorId}&filter[collection][_eq]=articles&fields=search,layout_query`)) as unknown[], { timeout: 60_000 }).toEqual([
      { search: 'sale', layout_query: { tabular: { fields: ['title', 'status'], sort: ['title'], limit: 25 } } },
    ]);

    await page.reload();
    await page.locator('.ant-table-row').first().waitFor();
    expect(await page.getByTestId('search').inputValue()).toBe('sale');
    expect(await page.locator('.ant-table-row').count()).toBe(2);
    expect(await firstTitle(page)).toBe('Alpha sale');
    expect(await headers(page)).toEqual(['Title', 'Status']);
  });

  it('saves a bookmark for everyone, shown under the collection in the menu, and deletes it', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/content/articles');
    await page.locator('.ant-table-row').first().waitFor();
    await page.getByTestId('search').fill('Beta');
    await page.getByTestId('search').press('Enter');
    await expect.poll(() => page.locator('.ant-table-row').count(), { timeout: 60_000 }).toBe(1);
    await page.getByTestId('bookmark-create').click();
    await page.getByTestId('bookmark-name').fill('Beta only');
    await page.getByTestId('bookmark-scope').getByText('Everyone').click();
    await page.getByTestId('bookmark-save').click();
    await page.getByTestId('bookmark-tag').filter({ hasText: 'Beta only' }).waitFor();
    const [saved] = (await api('get', '/presets?filter[bookmark][_eq]=Beta only&fields=id,user,role,search')) as Array<{ id: number; user: string | null; role: string | null; search: string }>;
    expect(saved).toMatchObject({ user: null, role: null, search: 'Beta' });
    await harness.screenshot(page, 'saved-views-bookmark');

    // Another user finds it under the collection and gets its view.
    const editor = await harness.newPage();
    await harness.signIn(editor, EDITOR.email, EDITOR.password);
    await editor.getByTestId(`nav-articles`).first().click();
    await editor.getByTestId(`nav-bookmark-${saved!.id}`).click();
    await editor.getByTestId('bookmark-tag').waitFor();
    await expect.poll(() => editor.locator('.ant-table-row').count(), { timeout: 60_000 }).toBe(1);
    expect(await firstTitle(editor)).toBe('Beta sale');

    // The admin deletes it: gone from the menu.
    await page.getByTestId('bookmark-delete').click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await page.waitForURL(/\/admin\/content\/articles$/);
    await expect.poll(async () => ((await api('get', '/presets?filter[bookmark][_nnull]=true&fields=id')) as unknown[]).length, { timeout: 60_000 }).toBe(0);
    expect(await page.getByTestId(`nav-bookmark-${saved!.id}`).count()).toBe(0);
    expect(adminId).toBeTruthy();
  });
});
