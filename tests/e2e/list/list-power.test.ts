import { readFile } from 'node:fs/promises';
import type { Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoEnglish } from '../english-leaks.ts';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from '../harness.ts';
import { pickOption } from '../interfaces/interface-kit.ts';

// The list's batch tools (issue 32 item 2): bulk edit and delete of a selection or of every item matching
// the view, the filter builder's related paths, export and import of the view, the archive switch, the
// keyboard, and plural texts; in en-US and pt-BR, on a desktop and at 390 px.

let harness: AdminHarness;
let token: string;
const EDITOR = { email: 'list-editor@example.com', password: 'list-editor-password-1' };
let editorToken: string;

const api = (method: ApiMethod, path: string, body?: object) => callApi(harness, token, method, path, body);
const titles = async (filter = '') => ((await api('get', `/items/articles?fields=title&sort=title&limit=-1${filter}`)) as Array<{ title: string }>).map((item) => item.title);
const rows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row');
const countText = (page: Page) => page.getByTestId('list-count');
/** A field label in Portuguese (the editor's language); en-US shows the field's name. */
const pt = (translation: string) => ({ translations: [{ language: 'pt-BR', translation }] });

/** Batch writes to /items/articles the page sends (method and JSON body), to prove each action is one request. */
function batchWrites(page: Page): Array<{ method: string; body: unknown }> {
  const seen: Array<{ method: string; body: unknown }> = [];
  page.on('request', (request: Request) => {
    if (!['PATCH', 'DELETE'].includes(request.method()) || !/\/items\/articles(\?|$)/.test(request.url())) return;
    seen.push({ method: request.method(), body: request.postDataJSON() });
  });
  return seen;
}

/** Picks `option` (by its title) in an antd select; `search` types it first (long lists render only the options in view). */
const pick = (page: Page, select: Locator, option: string, search = false) => pickOption(page, select, option, search);

/** Forgets the list views the list saved (columns, filter, search) so each test starts from the defaults. */
async function resetViews(): Promise<void> {
  const presets = (await api('get', '/presets?fields=id&filter[bookmark][_null]=true&limit=-1')) as Array<{ id: number }>;
  if (presets.length > 0) await harness.app.request.delete('/presets').set('Authorization', `Bearer ${token}`).send(presets.map((preset) => preset.id)).expect(204);
}

async function openArticles(page: Page): Promise<void> {
  await page.goto('/admin/content/articles');
  await rows(page).first().waitFor({ timeout: 60_000 }).catch(async (error) => {
    await harness.screenshot(page, 'list-open-failure');
    throw error;
  });
}

async function seedArticles(prefix: string, count: number): Promise<void> {
  const authors = (await api('get', '/items/authors?fields=id&sort=id')) as Array<{ id: number }>;
  await api(
    'post',
    '/items/articles',
    Array.from({ length: count }, (_, index) => ({ title: `${prefix} ${String(index + 1).padStart(2, '0')}`, words: index + 1, secret: 'classified', author: authors[index % 2]!.id })),
  );
}

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  await api('post', '/collections', { collection: 'authors', meta: { display_template: '{{name}}' }, fields: [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } }, { field: 'name', type: 'string' }] });
  await api('post', '/collections', {
    collection: 'articles',
    meta: { archive_field: 'status', archive_value: 'archived', unarchive_value: 'draft', archive_app_filter: true },
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      { field: 'title', type: 'string', meta: pt('Título') },
      // Seeded data is Portuguese (english-leaks.ts): the choices' texts are data.
      { field: 'status', type: 'string', schema: { default_value: 'draft' }, meta: { ...pt('Situação'), interface: 'select-dropdown', options: { choices: [{ text: 'Rascunho', value: 'draft' }, { text: 'Publicado', value: 'published' }, { text: 'Arquivado', value: 'archived' }] } } },
      { field: 'words', type: 'integer', meta: pt('Palavras') },
      { field: 'secret', type: 'string', meta: pt('Segredo') },
      { field: 'author', type: 'integer', meta: { ...pt('Autor'), special: ['m2o'], interface: 'select-dropdown-m2o' } },
    ],
  });
  await api('post', '/relations', { collection: 'articles', field: 'author', related_collection: 'authors' });
  await api('post', '/collections', {
    collection: 'comments',
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      { field: 'body', type: 'string' },
      { field: 'approved', type: 'boolean' },
      { field: 'article', type: 'integer', meta: { special: ['m2o'], interface: 'select-dropdown-m2o' } },
    ],
  });
  await api('post', '/relations', { collection: 'comments', field: 'article', related_collection: 'articles', meta: { one_field: 'comments' } });
  await api('post', '/items/authors', [{ name: 'Ada Lovelace' }, { name: 'Grace Hopper' }]);
  await seedArticles('Batch', 30);
  await api('post', '/items/articles', [{ title: 'Old piece', status: 'archived' }, { title: 'Lone draft' }]);
  const [first, second] = (await api('get', '/items/articles?fields=id&sort=id&limit=2')) as Array<{ id: number }>;
  await api('post', '/items/comments', [{ body: 'Lovely', approved: true, article: first!.id }, { body: 'Spam', approved: false, article: second!.id }]);

  // Editors read everything, may update title, status and words (not secret), and may not delete.
  const role = await api('post', '/roles', { name: 'List editors', app_access: true });
  for (const collection of ['articles', 'authors', 'comments']) await api('post', '/permissions', { role: role.id, collection, action: 'read', fields: '*' });
  await api('post', '/permissions', { role: role.id, collection: 'articles', action: 'update', fields: ['title', 'status', 'words'] });
  await api('post', '/users', { ...EDITOR, role: role.id, status: 'active', language: 'pt-BR' });
  editorToken = (await harness.app.request.post('/auth/login').send(EDITOR).expect(200)).body.data.access_token;
});
afterAll(async () => {
  await harness?.close();
});

describe('the item list\'s batch tools', () => {
  it('filters through a many-to-one path and a one-to-many _some/_none, and shows the archive switch where the collection has one', async () => {
    await resetViews();
    const page = await harness.newPage();
    await harness.signIn(page);
    await openArticles(page);
    // archive_app_filter: active items first (the archived one is left out), the switch on Active.
    await expect.poll(() => countText(page).textContent()).toBe('31 items');
    await page.locator('.ant-segmented-item-selected').getByText('Active', { exact: true }).waitFor();

    await page.getByTestId('open-filter').click();
    await page.getByTestId('filter-add').click();
    const rule = page.getByTestId('filter-rule-0');
    await pick(page, rule.getByTestId('filter-field'), 'Author → Name', true);
    await pick(page, rule.getByTestId('filter-operator'), 'contains');
    await rule.getByLabel('Value').fill('Ada');
    await expect.poll(() => countText(page).textContent()).toBe('15 items');
    expect(await rows(page).count()).toBe(15);

    await pick(page, rule.getByTestId('filter-field'), 'Comments (any) → Approved', true);
    await rule.getByRole('switch').click();
    await expect.poll(() => countText(page).textContent()).toBe('1 item');
    expect(await rows(page).first().textContent()).toContain('Batch 01');
    await harness.screenshot(page, 'list-filter-related');

    await pick(page, rule.getByTestId('filter-field'), 'Comments (none) → Approved', true);
    await rule.getByRole('switch').click();
    await expect.poll(() => countText(page).textContent()).toBe('30 items');
    await page.getByRole('button', { name: 'Clear all' }).click();
    await expect.poll(() => countText(page).textContent()).toBe('31 items');

    // A collection without an archive_field has no switch.
    await page.goto('/admin/content/authors');
    await rows(page).first().waitFor();
    expect(await page.locator('.ant-segmented').getByText('Archived', { exact: true }).count()).toBe(0);
  });

  it('moves, selects and opens rows with the keyboard, and bulk edits the selection in one PATCH with its keys', async () => {
    await resetViews();
    const page = await harness.newPage();
    const writes = batchWrites(page);
    await harness.signIn(page);
    await openArticles(page);
    await rows(page).first().focus();
    await page.keyboard.press('ArrowDown');
    const secondKey = await rows(page).nth(1).getAttribute('data-row-key');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-row-key'))).toBe(secondKey);
    await page.keyboard.press('Space');
    await page.getByTestId('bulk-count').filter({ hasText: '1 selected' }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await page.getByTestId('bulk-count').filter({ hasText: '2 selected' }).waitFor();
    const thirdKey = await rows(page).nth(2).getAttribute('data-row-key');
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-row-key'))).toBe(secondKey);

    await page.getByTestId('bulk-edit').click();
    const drawer = page.getByTestId('bulk-edit-drawer');
    await drawer.getByText('Edit 2 items').waitFor();
    await pick(page, drawer.getByTestId('bulk-edit-fields'), 'Status');
    // A multiple select stays open: a click on the title closes it (Escape would close the drawer).
    await drawer.locator('.ant-drawer-title').click();
    await pick(page, drawer.getByTestId('bulk-field-status').locator('.ant-select'), 'Publicado');
    await harness.screenshot(page, 'list-bulk-edit');
    await drawer.getByTestId('bulk-edit-apply').click();
    await page.getByText('2 items updated').waitFor();
    await expect.poll(async () => (await api('get', '/items/articles?fields=id&filter[status][_eq]=published&sort=id')) as unknown[]).toEqual([{ id: Number(secondKey) }, { id: Number(thirdKey) }]);
    expect(writes).toEqual([{ method: 'PATCH', body: { keys: [Number(secondKey), Number(thirdKey)], data: { status: 'published' } } }]);
    await page.getByTestId('bulk-toolbar').waitFor({ state: 'detached' });

    // Enter opens the focused row.
    await rows(page).nth(4).focus();
    const fifthKey = await rows(page).nth(4).getAttribute('data-row-key');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/admin/content/articles/${fifthKey}`);
  });

  it('selects every item matching the view across pages, then edits and deletes them with one request each', async () => {
    await resetViews();
    const page = await harness.newPage();
    const writes = batchWrites(page);
    await harness.signIn(page);
    await openArticles(page);
    await page.getByTestId('search').fill('Batch');
    await page.getByTestId('search').press('Enter');
    await expect.poll(() => countText(page).textContent()).toBe('30 items');
    expect(await rows(page).count()).toBe(25);
    await page.locator('.ant-table-thead').getByRole('checkbox').check();
    await page.getByTestId('bulk-count').filter({ hasText: '25 selected' }).waitFor();
    await page.getByTestId('select-all-matching').filter({ hasText: 'Select all 30 matching items' }).click();
    await page.getByTestId('bulk-count').filter({ hasText: 'All 30 matching items are selected' }).waitFor();
    await harness.screenshot(page, 'list-select-all-matching');

    await page.getByTestId('bulk-edit').click();
    const drawer = page.getByTestId('bulk-edit-drawer');
    await drawer.getByText('Edit 30 items').waitFor();
    await pick(page, drawer.getByTestId('bulk-edit-fields'), 'Words');
    await drawer.locator('.ant-drawer-title').click();
    await drawer.getByTestId('bulk-field-words').locator('input').fill('7');
    await drawer.getByTestId('bulk-edit-apply').click();
    await page.getByText('30 items updated').waitFor();
    const matching = { search: 'Batch', filter: { status: { _neq: 'archived' } }, limit: -1 };
    expect(writes).toEqual([{ method: 'PATCH', body: { query: matching, data: { words: 7 } } }]);
    const words = (await api('get', '/items/articles?fields=title,words&limit=-1')) as Array<{ title: string; words: number | null }>;
    expect(words.filter((item) => item.words === 7).length).toBe(30);
    // Neither the archived item (the archive switch) nor the active one the search leaves out.
    expect(words.find((item) => item.title === 'Old piece')?.words).toBeNull();
    expect(words.find((item) => item.title === 'Lone draft')?.words).toBeNull();

    // The edit cleared the selection; selecting all matching again deletes them all at once.
    await page.locator('.ant-table-thead').getByRole('checkbox').check();
    await page.getByTestId('select-all-matching').click();
    await page.getByTestId('bulk-delete').click();
    await page.locator('.ant-popconfirm').getByText('Delete 30 items? This cannot be undone.').waitFor();
    await page.getByTestId('bulk-delete-confirm').click();
    await page.getByText('30 items deleted').waitFor();
    expect(writes[1]).toEqual({ method: 'DELETE', body: { query: matching } });
    expect(writes.length).toBe(2);
    expect(await titles()).toEqual(['Lone draft', 'Old piece']);
    await page.getByTestId('list-empty').waitFor();
  });

  it('offers a Portuguese-speaking editor only the fields the role may update, on a phone, and the server refuses the others', async () => {
    await seedArticles('Lote', 3);
    const page = await harness.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await harness.signIn(page, EDITOR.email, EDITOR.password);
    await openArticles(page);
    await expect.poll(() => countText(page).textContent()).toBe('4 itens');
    await page.getByTestId('search').fill('Lote');
    await page.getByTestId('search').press('Enter');
    await expect.poll(() => countText(page).textContent()).toBe('3 itens');
    await rows(page).nth(0).getByRole('checkbox').check();
    await page.getByTestId('bulk-count').filter({ hasText: '1 selecionado' }).waitFor();
    await rows(page).nth(1).getByRole('checkbox').check();
    await page.getByTestId('bulk-count').filter({ hasText: '2 selecionados' }).waitFor();
    // No delete permission: no delete button.
    expect(await page.getByTestId('bulk-delete').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await harness.screenshot(page, 'list-selection-pt-BR-390');

    await page.getByTestId('bulk-edit').click();
    const drawer = page.getByTestId('bulk-edit-drawer');
    await drawer.getByText('Editar 2 itens').waitFor();
    await drawer.getByTestId('bulk-edit-fields').click();
    const options = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');
    await options.first().waitFor();
    expect(await options.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('title')))).toEqual(['Título', 'Situação', 'Palavras']);
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('Palavras', { exact: true }).click();
    await drawer.locator('.ant-drawer-title').click();
    await drawer.getByTestId('bulk-field-words').locator('input').fill('12');
    await expectNoEnglish(page);
    await harness.screenshot(page, 'list-bulk-edit-pt-BR-390');
    await drawer.getByTestId('bulk-edit-apply').click();
    await page.getByText('2 itens atualizados').waitFor();
    expect((await api('get', '/items/articles?fields=title,words&filter[title][_starts_with]=Lote&sort=title')) as unknown[]).toEqual([
      { title: 'Lote 01', words: 12 },
      { title: 'Lote 02', words: 12 },
      { title: 'Lote 03', words: 3 },
    ]);

    // The API refuses the field the form did not offer, and writes nothing.
    const keys = ((await api('get', '/items/articles?fields=id&filter[title][_starts_with]=Lote')) as Array<{ id: number }>).map((item) => item.id);
    const refused = await harness.app.request.patch('/items/articles').set('Authorization', `Bearer ${editorToken}`).send({ keys, data: { secret: 'leaked' } });
    expect(refused.status).toBe(403);
    expect(((await api('get', '/items/articles?fields=secret&filter[title][_starts_with]=Lote')) as Array<{ secret: string }>).map((item) => item.secret)).toEqual(['classified', 'classified', 'classified']);
  });

  it('exports the view (its filtered rows and chosen columns) and imports a CSV, naming the failing row and field', async () => {
    await resetViews();
    const adminId = (await api('get', '/users/me?fields=id')).id;
    const ada = ((await api('get', '/items/authors?fields=id&filter[name][_eq]=Ada Lovelace')) as Array<{ id: number }>)[0]!.id;
    // The saved view: title and author columns, by title, only Ada's "Lote" articles.
    await api('post', '/presets', { collection: 'articles', user: adminId, layout: 'tabular', layout_query: { tabular: { fields: ['title', 'author'], sort: ['title'], limit: 25 } }, search: 'Lote', filter: { author: { name: { _icontains: 'Ada' } } } });
    const page = await harness.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await harness.signIn(page);
    await openArticles(page);
    await expect.poll(() => countText(page).textContent()).toBe('2 items');

    const download = async (format: string) => {
      await page.getByTestId('transfer-menu').click();
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(`export-${format}`).click()]);
      return readFile((await file.path())!, 'utf8');
    };
    const csv = await download('csv');
    expect(csv.trim().split(/\r?\n/)).toEqual(['title,author.id,author.name', `Lote 01,${ada},Ada Lovelace`, `Lote 03,${ada},Ada Lovelace`]);
    expect(JSON.parse(await download('json'))).toEqual([
      { title: 'Lote 01', author: { id: ada, name: 'Ada Lovelace' } },
      { title: 'Lote 03', author: { id: ada, name: 'Ada Lovelace' } },
    ]);

    await page.getByTestId('transfer-menu').click();
    await page.getByTestId('import-open').click();
    const input = page.locator('.ant-modal input[type=file]');
    await input.setInputFiles({ name: 'articles.csv', mimeType: 'text/csv', buffer: Buffer.from('title,words\nImported one,5\nImported two,many\n') });
    const error = page.getByTestId('import-error');
    await error.getByText('Nothing was imported: Row 3, field “Words”').waitFor();
    await harness.screenshot(page, 'list-import-error-390');
    expect(await titles('&filter[title][_starts_with]=Imported')).toEqual([]);

    await input.setInputFiles({ name: 'articles.csv', mimeType: 'text/csv', buffer: Buffer.from('title,words\nImported one,5\nImported two,6\n') });
    await page.getByText('2 items imported').waitFor();
    expect(await titles('&filter[title][_starts_with]=Imported')).toEqual(['Imported one', 'Imported two']);
  });
});
