import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from './harness.ts';

let harness: AdminHarness;
let token: string;

const api = (method: ApiMethod, path: string, body?: object) => callApi(harness, token, method, path, body);

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  await api('post', '/collections', {
    collection: 'articles',
    meta: {
      archive_field: 'status',
      archive_value: 'archived',
      unarchive_value: 'draft',
      archive_app_filter: true,
      item_duplication_fields: ['title', 'status', 'notes.*'],
      preview_url: `${harness.baseUrl}/server/ping?slug={{slug}}`,
    },
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: { hidden: true } },
      { field: 'title', type: 'string' },
      { field: 'slug', type: 'string' },
      { field: 'status', type: 'string', schema: { default_value: 'draft' } },
    ],
  });
  await api('post', '/collections', { collection: 'notes', fields: [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } }, { field: 'body', type: 'string' }, { field: 'article', type: 'integer' }] });
  await api('post', '/relations', { collection: 'notes', field: 'article', related_collection: 'articles', meta: { one_field: 'notes' } });
  await api('post', '/items/articles', { title: 'Spring sale', slug: 'spring-sale', notes: [{ body: 'Check prices' }] });
});
afterAll(async () => {
  await harness?.close();
});

describe('archive, save as copy and preview on the item page', () => {
  it('archives and brings back an item, the list hiding archived ones by default', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/content/articles/1');
    await page.getByTestId('item-archive').click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await expect.poll(async () => (await api('get', '/items/articles/1?fields=status')).status, { timeout: 60_000 }).toBe('archived');
    await page.getByTestId('item-unarchive').waitFor();

    await page.goto('/admin/content/articles');
    await page.getByTestId('list-empty').waitFor();
    await page.getByText('Archived', { exact: true }).click();
    await page.getByText('Spring sale').waitFor();
    // archive_app_filter off: the list starts on all items, archived ones included.
    await harness.app.request.patch('/collections/articles').set('Authorization', `Bearer ${token}`).send({ meta: { archive_app_filter: false } }).expect(200);
    await page.reload();
    await page.getByText('Spring sale').waitFor();
    await harness.app.request.patch('/collections/articles').set('Authorization', `Bearer ${token}`).send({ meta: { archive_app_filter: true } }).expect(200);

    await page.goto('/admin/content/articles/1');
    await page.getByTestId('item-unarchive').click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await expect.poll(async () => (await api('get', '/items/articles/1?fields=status')).status, { timeout: 60_000 }).toBe('draft');
  });

  it('saves a copy with the duplication fields, related rows created anew, and the unsaved edits', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/content/articles/1');
    await page.locator('#field-title').waitFor();
    await page.locator('#field-title').fill('Spring sale (copy)');
    await page.getByTestId('save-options').click();
    await page.getByTestId('item-save-copy').click();
    await page.waitForURL((url) => /\/admin\/content\/articles\/\d+$/.test(url.pathname) && !url.pathname.endsWith('/1'));
    const copy = (await api('get', '/items/articles?fields=id,title,slug,status,notes.body&filter[id][_neq]=1')) as Array<Record<string, unknown>>;
    expect(copy).toEqual([{ id: expect.any(Number), title: 'Spring sale (copy)', slug: null, status: 'draft', notes: [{ body: 'Check prices' }] }]);
    // The original keeps its title and its note.
    expect(await api('get', '/items/articles/1?fields=title,notes.body')).toEqual({ title: 'Spring sale', notes: [{ body: 'Check prices' }] });
    expect(((await api('get', '/items/notes?fields=id')) as unknown[]).length).toBe(2);
  });

  it('shows the preview_url beside the form and reloads it with the saved values', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/content/articles/1');
    await page.getByTestId('item-preview-toggle').click();
    const frame = page.getByTestId('item-preview');
    await expect.poll(() => frame.getAttribute('src'), { timeout: 60_000 }).toBe(`${harness.baseUrl}/server/ping?slug=spring-sale`);
    expect(await page.frameLocator('[data-testid="item-preview"]').locator('body').textContent()).toContain('pong');
    await page.locator('#field-slug').fill('summer-sale');
    await page.getByTestId('save-item').click();
    await expect.poll(() => frame.getAttribute('src'), { timeout: 60_000 }).toBe(`${harness.baseUrl}/server/ping?slug=summer-sale`);
    await harness.screenshot(page, 'item-preview');
  });
});
