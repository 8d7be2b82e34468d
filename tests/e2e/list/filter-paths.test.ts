import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { englishLeaks } from '../english-leaks.ts';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from '../harness.ts';

// The filter builder's deeper paths (issue 32 item 2): through two many-to-ones (author.country.name),
// through a many-to-many's junction (tags._some.tags_id.name, and _none), through a many-to-any's
// collection (blocks._some.item:quotes.text); only paths the user may read. en-US at 1360 px and pt-BR at
// 390 px. Seeded data is Portuguese (english-leaks.ts).

let harness: AdminHarness;
let token: string;
const READER = { email: 'leitor-filtros@example.com', password: 'leitor-filtros-senha-1' };

const api = (method: ApiMethod, path: string, body?: object) => callApi(harness, token, method, path, body);
const rows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row');
const pt = (translation: string) => ({ translations: [{ language: 'pt-BR', translation }] });
const id = { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } };

/** Picks a path in the rule's field select by typing its label (long lists render only the options in view). */
async function pickPath(page: Page, rule: ReturnType<Page['locator']>, label: string): Promise<void> {
  await rule.getByTestId('filter-field').click();
  await page.keyboard.type(label);
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle(label, { exact: true }).click();
}

/** The titles the list shows, in order. */
const shownTitles = async (page: Page) => (await rows(page).allTextContents()).map((text) => ['Abelhas', 'Navios', 'Sem nada'].find((title) => text.includes(title)) ?? text);

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  await api('post', '/collections', { collection: 'countries', meta: { display_template: '{{name}}' }, fields: [id, { field: 'name', type: 'string', meta: pt('Nome') }] });
  await api('post', '/collections', {
    collection: 'authors',
    meta: { display_template: '{{name}}' },
    fields: [id, { field: 'name', type: 'string', meta: pt('Nome') }, { field: 'country', type: 'integer', meta: pt('País') }],
  });
  await api('post', '/relations', { collection: 'authors', field: 'country', related_collection: 'countries' });
  await api('post', '/collections', { collection: 'tags', meta: { display_template: '{{name}}' }, fields: [id, { field: 'name', type: 'string', meta: pt('Nome') }] });
  await api('post', '/collections', { collection: 'quotes', meta: { display_template: '{{text}}', ...pt('Citações') }, fields: [id, { field: 'text', type: 'string', meta: pt('Texto') }] });
  await api('post', '/collections', {
    collection: 'articles',
    meta: { display_template: '{{title}}' },
    fields: [id, { field: 'title', type: 'string', meta: pt('Título') }, { field: 'author', type: 'integer', meta: pt('Autor') }],
  });
  await api('post', '/relations', { collection: 'articles', field: 'author', related_collection: 'authors' });
  await api('post', '/collections', { collection: 'articles_tags', meta: { hidden: true }, fields: [id, { field: 'articles_id', type: 'integer' }, { field: 'tags_id', type: 'integer' }] });
  await api('post', '/relations', { collection: 'articles_tags', field: 'articles_id', related_collection: 'articles', meta: { one_field: 'tags', junction_field: 'tags_id' }, schema: { on_delete: 'CASCADE' } });
  await api('post', '/relations', { collection: 'articles_tags', field: 'tags_id', related_collection: 'tags', meta: { junction_field: 'articles_id' }, schema: { on_delete: 'CASCADE' } });
  await api('patch', '/fields/articles/tags', { meta: pt('Etiquetas') });
  await api('post', '/collections', { collection: 'articles_blocks', meta: { hidden: true }, fields: [id, { field: 'articles_id', type: 'integer' }, { field: 'item', type: 'string' }, { field: 'collection', type: 'string' }] });
  await api('post', '/relations', { collection: 'articles_blocks', field: 'item', related_collection: null, meta: { one_collection_field: 'collection', one_allowed_collections: ['quotes'], junction_field: 'articles_id' } });
  await api('post', '/relations', { collection: 'articles_blocks', field: 'articles_id', related_collection: 'articles', meta: { one_field: 'blocks', junction_field: 'item' }, schema: { on_delete: 'CASCADE' } });
  await api('patch', '/fields/articles/blocks', { meta: pt('Blocos') });

  const [portugal, brasil] = await api('post', '/items/countries', [{ name: 'Portugal' }, { name: 'Brasil' }]);
  const [ada, grace] = await api('post', '/items/authors', [{ name: 'Ada Lovelace', country: portugal.id }, { name: 'Grace Hopper', country: brasil.id }]);
  const [science, history] = await api('post', '/items/tags', [{ name: 'ciência' }, { name: 'história' }]);
  const [quote] = await api('post', '/items/quotes', [{ text: 'Ser ou não ser' }]);
  await api('post', '/items/articles', [
    { title: 'Abelhas', author: ada.id, tags: [{ tags_id: science.id }], blocks: [{ collection: 'quotes', item: String(quote.id) }] },
    { title: 'Navios', author: grace.id, tags: [{ tags_id: history.id }] },
    { title: 'Sem nada' },
  ]);

  // A reader of articles and authors who may not read countries: no path through them is offered.
  const role = await api('post', '/roles', { name: 'Leitores de artigos', app_access: true });
  for (const collection of ['articles', 'authors']) await api('post', '/permissions', { role: role.id, collection, action: 'read', fields: '*' });
  await api('post', '/users', { ...READER, role: role.id, status: 'active', language: 'en-US' });
});
afterAll(async () => {
  await harness?.close();
});

const LOCALES = [
  { locale: 'en-US', width: 1360, height: 860, labels: { country: 'Author → Country → Name', tagsSome: 'Tags (any) → Name', tagsNone: 'Tags (none) → Name', quote: 'Blocks (any) → Quotes → Text', contains: 'contains', value: 'Value' } },
  { locale: 'pt-BR', width: 390, height: 844, labels: { country: 'Autor → País → Nome', tagsSome: 'Etiquetas (algum) → Nome', tagsNone: 'Etiquetas (nenhum) → Nome', quote: 'Blocos (algum) → Citações → Texto', contains: 'contém', value: 'Valor' } },
] as const;

describe("the filter builder's related paths", () => {
  it.each(LOCALES)('$locale at $width px: filters through two many-to-ones, a many-to-many (some and none) and a many-to-any', async ({ locale, width, height, labels }) => {
    await api('patch', '/users/me', { language: locale });
    // The list keeps its view (the filter too) in a preset: each run starts from none.
    const presets = (await api('get', '/presets?fields=id&filter[bookmark][_null]=true&limit=-1')) as Array<{ id: number }>;
    if (presets.length > 0) await harness.app.request.delete('/presets').set('Authorization', `Bearer ${token}`).send(presets.map((preset) => preset.id)).expect(204);
    const page = await harness.newPage();
    await page.setViewportSize({ width, height });
    await harness.signIn(page);
    await page.goto('/admin/content/articles');
    await expect.poll(() => rows(page).count(), { timeout: 60_000 }).toBe(3);
    await page.getByTestId('open-filter').click();
    await page.getByTestId('filter-add').click();
    const rule = page.getByTestId('filter-rule-0');
    const filterBy = async (label: string, text: string) => {
      await pickPath(page, rule, label);
      await rule.getByTestId('filter-operator').click();
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle(labels.contains, { exact: true }).click();
      await rule.getByLabel(labels.value).fill(text);
    };

    await filterBy(labels.country, 'Portu');
    await expect.poll(() => shownTitles(page), { timeout: 60_000 }).toEqual(['Abelhas']);
    await harness.screenshot(page, `list-filter-paths-${locale}-${width}`);
    if (locale === 'pt-BR') expect(await englishLeaks(page)).toEqual([]);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);

    await filterBy(labels.tagsSome, 'hist');
    await expect.poll(() => shownTitles(page), { timeout: 60_000 }).toEqual(['Navios']);
    await filterBy(labels.tagsNone, 'ciên');
    await expect.poll(async () => (await shownTitles(page)).sort(), { timeout: 60_000 }).toEqual(['Navios', 'Sem nada']);
    await filterBy(labels.quote, 'Ser ou');
    await expect.poll(() => shownTitles(page), { timeout: 60_000 }).toEqual(['Abelhas']);
    // The open list of paths fits the window too.
    await rule.getByTestId('filter-field').click();
    await page.keyboard.type(locale === 'en-US' ? 'Author' : 'Autor');
    await harness.screenshot(page, `list-filter-paths-open-${locale}-${width}`);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
    await page.close();
  });

  it('offers no path through a collection the user may not read', async () => {
    const page = await harness.newPage();
    await harness.signIn(page, READER.email, READER.password);
    await page.goto('/admin/content/articles');
    await expect.poll(() => rows(page).count(), { timeout: 60_000 }).toBe(3);
    await page.getByTestId('open-filter').click();
    await page.getByTestId('filter-add').click();
    const rule = page.getByTestId('filter-rule-0');
    await pickPath(page, rule, 'Author → Name');
    await rule.getByTestId('filter-field').click();
    await page.keyboard.type('Author → Country');
    const open = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
    await open.getByTitle('Author → Country', { exact: true }).waitFor();
    expect(await open.getByTitle('Author → Country → Name', { exact: true }).count()).toBe(0);
    await page.close();
  });
});
