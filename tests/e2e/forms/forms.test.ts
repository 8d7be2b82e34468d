import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { animationsDone, startSignedInAdmin, type Send } from '../interfaces/interface-kit.ts';
import type { AdminHarness } from '../harness.ts';

let harness: AdminHarness;
let token: string;
let send: Send;
/** The article the Back/Forward test edits (the other tests rename article 1). */
let mothsId: number;

const LOCALES = [
  { locale: 'en-US', width: 1360, height: 860, texts: { unsaved: 'Unsaved changes', discard: 'Discard changes', deleteOne: 'Delete 1 item? This cannot be undone.', items: (n: number) => (n === 1 ? '1 item' : `${n} items`) } },
  { locale: 'pt-BR', width: 390, height: 844, texts: { unsaved: 'Alterações não salvas', discard: 'Descartar alterações', deleteOne: 'Excluir 1 item? Isso não pode ser desfeito.', items: (n: number) => (n === 1 ? '1 item' : `${n} itens`) } },
] as const;

const articleTitle = async (id: number) => ((await send('get', `/items/articles/${id}?fields=title`)) as { title: string }).title;

/** Signs in as the administrator speaking `locale`, on a window of that size. */
async function openAs(locale: string, width: number, height: number): Promise<Page> {
  await send('patch', '/users/me', { language: locale });
  const page = await harness.newPage();
  await page.setViewportSize({ width, height });
  await harness.signIn(page);
  return page;
}

beforeAll(async () => {
  ({ harness, token, send } = await startSignedInAdmin());
  await send('post', '/collections', { collection: 'languages', meta: { display_template: '{{name}}' }, fields: [{ field: 'code', type: 'string', schema: { is_primary_key: true } }, { field: 'name', type: 'string' }] });
  await send('post', '/items/languages', [{ code: 'en-US', name: 'English' }, { code: 'pt-BR', name: 'Português' }]);
  await send('post', '/collections', { collection: 'tags', meta: { display_template: '{{label}}' }, fields: [{ field: 'label', type: 'string' }] });
  await send('post', '/items/tags', [{ label: 'science' }, { label: 'history' }, { label: 'art' }]);
  await send('post', '/collections', {
    collection: 'articles',
    meta: { item_duplication_fields: ['title', 'tags.tags_id', 'translations.languages_code', 'translations.headline'] },
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: { hidden: true } },
      { field: 'title', type: 'string' },
      { field: 'published_on', type: 'date', meta: { interface: 'datetime' } },
    ],
  });
  await send('post', '/collections', { collection: 'articles_tags', meta: { hidden: true }, schema: {}, fields: [{ field: 'articles_id', type: 'integer', meta: { hidden: true } }, { field: 'tags_id', type: 'integer', meta: { hidden: true } }] });
  await send('post', '/relations', { collection: 'articles_tags', field: 'articles_id', related_collection: 'articles', meta: { one_field: 'tags', junction_field: 'tags_id' }, schema: { on_delete: 'CASCADE' } });
  await send('post', '/relations', { collection: 'articles_tags', field: 'tags_id', related_collection: 'tags', meta: { junction_field: 'articles_id' }, schema: { on_delete: 'CASCADE' } });
  await send('post', '/collections', {
    collection: 'articles_translations',
    meta: { hidden: true },
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: { hidden: true } },
      { field: 'articles_id', type: 'integer', meta: { hidden: true } },
      { field: 'languages_code', type: 'string', meta: { hidden: true } },
      { field: 'headline', type: 'string' },
    ],
  });
  await send('post', '/fields/articles', { field: 'translations', type: 'alias', meta: { special: ['translations'], interface: 'translations' } });
  await send('post', '/relations', { collection: 'articles_translations', field: 'languages_code', related_collection: 'languages', meta: { junction_field: 'articles_id' } });
  await send('post', '/relations', { collection: 'articles_translations', field: 'articles_id', related_collection: 'articles', meta: { one_field: 'translations', junction_field: 'languages_code', one_deselect_action: 'delete' } });
  await send('post', '/items/articles', {
    title: 'Bees',
    tags: [{ tags_id: 1 }, { tags_id: 3 }],
    translations: [{ languages_code: 'en-US', headline: 'Bees at work' }, { languages_code: 'pt-BR', headline: 'Abelhas trabalhando' }],
  });
  mothsId = (await send('post', '/items/articles', { title: 'Moths' })).id;
});
afterAll(async () => {
  await harness?.close();
});

describe('forms that never lose work', () => {
  it.each(LOCALES)('$locale at $width px: leaving with unsaved changes asks first, Ctrl+S saves, "save and create new" starts the next item', async ({ locale, width, height, texts }) => {
    const page = await openAs(locale, width, height);
    await page.goto('/admin/content/articles/1');
    const title = page.locator('#field-title');
    await expect.poll(() => title.inputValue(), { timeout: 60_000 }).not.toBe('');
    // Both language tabs are whole in their strip (at 390 px the "beside" picker goes above it, not beside).
    await page.getByTestId('translation-tab-pt-BR').waitFor();
    const strip = (await page.getByTestId('translations-translations').locator('.ant-tabs-nav-wrap').boundingBox())!;
    for (const code of ['en-US', 'pt-BR']) {
      const tab = (await page.getByTestId(`translation-tab-${code}`).boundingBox())!;
      expect(tab.x >= strip.x - 1 && tab.x + tab.width <= strip.x + strip.width + 1).toBe(true);
    }

    // An in-app link with edits: the question, and "keep editing" keeps them.
    await title.fill(`Bees ${locale}`);
    await page.getByTestId('item-back').click();
    const dialog = page.locator('.ant-modal-confirm');
    await expect.poll(() => dialog.locator('.ant-modal-confirm-title').textContent(), { timeout: 60_000 }).toBe(texts.unsaved);
    await harness.screenshot(page, `forms-unsaved-${locale}-${width}`);
    // The question zooms in: a click while it moves can miss its button and leave it open.
    await animationsDone(page);
    await page.getByTestId('unsaved-keep').click();
    await dialog.waitFor({ state: 'detached', timeout: 60_000 });
    expect(new URL(page.url()).pathname).toBe('/admin/content/articles/1');
    expect(await title.inputValue()).toBe(`Bees ${locale}`);

    // Closing the tab asks the browser's question; dismissing it keeps the page.
    const unload = page.waitForEvent('dialog', { timeout: 60_000 });
    await page.close({ runBeforeUnload: true });
    const question = await unload;
    expect(question.type()).toBe('beforeunload');
    await question.dismiss();
    expect(page.isClosed()).toBe(false);

    // Ctrl+S saves and stays; the saved form leaves without a question.
    await page.keyboard.press('Control+s');
    await expect.poll(() => articleTitle(1), { timeout: 60_000 }).toBe(`Bees ${locale}`);
    expect(new URL(page.url()).pathname).toBe('/admin/content/articles/1');
    await page.getByTestId('item-back').click();
    await page.waitForURL(/\/admin\/content\/articles$/);

    // Discarding leaves without saving.
    await page.goto('/admin/content/articles/1');
    await expect.poll(() => title.inputValue(), { timeout: 60_000 }).toBe(`Bees ${locale}`);
    await title.fill('Never saved');
    await page.getByTestId('item-back').click();
    await expect.poll(() => dialog.getByTestId('unsaved-discard').textContent(), { timeout: 60_000 }).toBe(texts.discard);
    await animationsDone(page);
    await dialog.getByTestId('unsaved-discard').click();
    await dialog.waitFor({ state: 'detached', timeout: 60_000 });
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 60_000 }).toBe('/admin/content/articles');
    expect(await articleTitle(1)).toBe(`Bees ${locale}`);

    // Save and create new: the item is stored and an empty form opens.
    await page.goto('/admin/content/articles/+');
    await title.fill(`Wasps ${locale}`);
    await page.getByTestId('save-options').click();
    await page.getByTestId('item-save-new').click();
    await expect.poll(async () => ((await send('get', `/items/articles?filter[title][_eq]=Wasps ${locale}&fields=id`)) as unknown[]).length, { timeout: 60_000 }).toBe(1);
    await expect.poll(() => title.inputValue(), { timeout: 60_000 }).toBe('');
    expect(new URL(page.url()).pathname).toBe('/admin/content/articles/+');
    await page.close();
  });

  it.each(LOCALES)("$locale at $width px: the browser's Back and Forward buttons ask first too; keep editing stays, discard leaves", async ({ locale, width, height, texts }) => {
    const page = await openAs(locale, width, height);
    const itemPath = `/admin/content/articles/${mothsId}`;
    const path = () => new URL(page.url()).pathname;
    const title = page.locator('#field-title');
    const dialog = page.locator('.ant-modal-confirm');
    const asked = async () => expect.poll(() => dialog.locator('.ant-modal-confirm-title').textContent(), { timeout: 60_000 }).toBe(texts.unsaved);
    // In-app steps only: list, then the item opened from its row (history entries of one page).
    await page.goto('/admin/content/articles');
    const row = page.getByTestId('list-row').filter({ hasText: 'Moths' }).getByText('Moths', { exact: true });
    await row.waitFor({ timeout: 60_000 });
    await row.click();
    await page.waitForURL(`**${itemPath}`);
    await expect.poll(() => title.inputValue(), { timeout: 60_000 }).toBe('Moths');

    // Back with edits: the question; keeping them stays on the item, the address bar included.
    await title.fill(`Moths ${locale}`);
    await page.goBack();
    await asked();
    await harness.screenshot(page, `forms-unsaved-back-${locale}-${width}`);
    await animationsDone(page);
    await page.getByTestId('unsaved-keep').click();
    await dialog.waitFor({ state: 'detached', timeout: 60_000 });
    await expect.poll(path, { timeout: 60_000 }).toBe(itemPath);
    expect(await title.inputValue()).toBe(`Moths ${locale}`);

    // Back again, discarding: the list, nothing saved.
    await page.goBack();
    await asked();
    await animationsDone(page);
    await page.getByTestId('unsaved-discard').click();
    // The question fades out after it is answered: gone before the next step looks for a new one.
    await dialog.waitFor({ state: 'detached', timeout: 60_000 });
    await expect.poll(path, { timeout: 60_000 }).toBe('/admin/content/articles');
    expect(await articleTitle(mothsId)).toBe('Moths');

    // Forward to the item (no edits: no question), back to the list by its button, Back to the item again.
    await page.goForward();
    await expect.poll(path, { timeout: 60_000 }).toBe(itemPath);
    await expect.poll(() => title.inputValue(), { timeout: 60_000 }).toBe('Moths');
    expect(await dialog.count()).toBe(0);
    await page.getByTestId('item-back').click();
    await page.waitForURL(/\/admin\/content\/articles$/);
    await page.goBack();
    await expect.poll(path, { timeout: 60_000 }).toBe(itemPath);
    await expect.poll(() => title.inputValue(), { timeout: 60_000 }).toBe('Moths');

    // Forward with edits asks too: keep, then discard.
    await title.fill(`Moths ${locale} again`);
    await page.goForward();
    await asked();
    await animationsDone(page);
    await page.getByTestId('unsaved-keep').click();
    await dialog.waitFor({ state: 'detached', timeout: 60_000 });
    await expect.poll(path, { timeout: 60_000 }).toBe(itemPath);
    expect(await title.inputValue()).toBe(`Moths ${locale} again`);
    await page.goForward();
    await asked();
    await animationsDone(page);
    await page.getByTestId('unsaved-discard').click();
    // The question fades out after it is answered: gone before the next step looks for a new one.
    await dialog.waitFor({ state: 'detached', timeout: 60_000 });
    await expect.poll(path, { timeout: 60_000 }).toBe('/admin/content/articles');
    expect(await articleTitle(mothsId)).toBe('Moths');
    await page.close();
  });

  it.each(LOCALES)('$locale at $width px: an ISO date typed into the date picker is kept; plurals read right', async ({ locale, width, height, texts }) => {
    const page = await openAs(locale, width, height);
    await page.goto('/admin/content/articles/1');
    const date = page.locator('#field-published_on');
    await date.click();
    await date.fill(locale === 'en-US' ? '2026-03-14' : '2026-04-21');
    await date.press('Enter');
    await page.getByTestId('save-item').click();
    await expect.poll(async () => ((await send('get', '/items/articles/1?fields=published_on')) as { published_on: string | null }).published_on, { timeout: 60_000 }).toBe(locale === 'en-US' ? '2026-03-14' : '2026-04-21');
    expect(await date.inputValue()).toBe(locale === 'en-US' ? '03/14/2026' : '21/04/2026');

    const total = ((await send('get', '/items/articles?fields=id&limit=-1')) as unknown[]).length;
    await page.goto('/admin/content/articles');
    await page.getByText(texts.items(total), { exact: true }).waitFor();
    await page.locator('.ant-table-row .ant-checkbox-input').first().check();
    await page.getByTestId('bulk-delete').click();
    await page.getByText(texts.deleteOne, { exact: true }).waitFor();
    await harness.screenshot(page, `forms-plural-${locale}-${width}`);
    await page.close();
  });

  it('shows the project logo and name while the app loads, never a bare spinner', async () => {
    await send('patch', '/users/me', { language: 'en-US' });
    const page = await harness.newPage();
    await harness.signIn(page);
    // Hold the session check until the loading screen has been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/auth/session', async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    const loading = page.getByTestId('app-loading');
    await loading.waitFor({ timeout: 60_000 });
    expect(await loading.innerText()).toMatch(/Tessera[\s\S]*Loading…/);
    await harness.screenshot(page, 'app-loading');
    release();
    await page.getByTestId('user-menu').waitFor({ timeout: 60_000 });
    await page.close();
  });

  it('keeps what is typed while a save is on its way: the read after the save brings the saved item and leaves the new edit, unsaved', async () => {
    const id = (await send('post', '/items/articles', { title: 'Hornets' })).id as number;
    const page = await openAs('en-US', 1360, 860);
    await page.goto(`/admin/content/articles/${id}`);
    const title = page.locator('#field-title');
    await expect.poll(() => title.inputValue(), { timeout: 60_000 }).toBe('Hornets');
    // The save's PATCH is held in the browser until the next edit is in the form.
    const matcher = (url: URL) => url.pathname === `/items/articles/${id}`;
    let held: (route: Route) => void;
    const arrived = new Promise<Route>((resolve) => (held = resolve));
    await page.route(matcher, (route) => (route.request().method() === 'PATCH' ? held(route) : route.continue()));
    await title.fill('Hornets A');
    await page.keyboard.press('Control+s');
    const patch = await arrived;
    await title.fill('Hornets A B');
    const reread = page.waitForResponse((response) => matcher(new URL(response.url())) && response.request().method() === 'GET');
    await patch.continue();
    await reread;
    // The header shows the item as read after the save; the form's reset to it has run once the next frames are drawn.
    await expect.poll(() => page.getByTestId('item-title').textContent(), { timeout: 60_000 }).toBe('Hornets A');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await articleTitle(id)).toBe('Hornets A');
    expect(await title.inputValue()).toBe('Hornets A B');
    // Still unsaved: leaving asks, and the next save stores it.
    await page.getByTestId('item-back').click();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.getByTestId('unsaved-keep').waitFor({ timeout: 60_000 });
    await animationsDone(page);
    await dialog.getByTestId('unsaved-keep').click();
    await dialog.waitFor({ state: 'detached', timeout: 60_000 });
    await page.unroute(matcher);
    await page.keyboard.press('Control+s');
    await expect.poll(() => articleTitle(id), { timeout: 60_000 }).toBe('Hornets A B');
    await page.close();
  });

  it('saves a copy with its many-to-many tags and translations, as item_duplication_fields says', async () => {
    const page = await openAs('en-US', 1360, 860);
    await page.goto('/admin/content/articles/1');
    const title = page.locator('#field-title');
    await expect.poll(() => title.inputValue(), { timeout: 60_000 }).not.toBe('');
    // Hovering a field's history mark lists its earlier values, newest first.
    await page.getByTestId('history-title').hover();
    const history = page.getByTestId('history-list-title');
    await expect.poll(() => history.innerText(), { timeout: 60_000 }).toMatch(/Bees pt-BR[\s\S]*Bees en-US[\s\S]*Bees/);
    await harness.screenshot(page, 'forms-field-history');
    await title.fill('Bees (copy)');
    await page.getByTestId('save-options').click();
    await harness.screenshot(page, 'forms-save-menu');
    await page.getByTestId('item-save-copy').click();
    await page.waitForURL((url) => /\/admin\/content\/articles\/\d+$/.test(url.pathname) && !url.pathname.endsWith('/1'), { timeout: 60_000 });
    const copyId = Number(new URL(page.url()).pathname.split('/').pop());
    const read = (id: number) => send('get', `/items/articles/${id}?fields=title,tags.tags_id,translations.languages_code,translations.headline`);
    const copy = (await read(copyId)) as { title: string; tags: Array<{ tags_id: number }>; translations: Array<{ languages_code: string; headline: string }> };
    expect(copy.title).toBe('Bees (copy)');
    expect(copy.tags.map((row) => row.tags_id).sort()).toEqual([1, 3]);
    expect(copy.translations.map((row) => `${row.languages_code}:${row.headline}`).sort()).toEqual(['en-US:Bees at work', 'pt-BR:Abelhas trabalhando']);
    // The original keeps its own rows: the copy's are new ones.
    const original = (await read(1)) as typeof copy;
    expect(original.tags).toHaveLength(2);
    expect(original.translations).toHaveLength(2);
    expect(((await send('get', '/items/articles_translations?fields=id&limit=-1')) as unknown[]).length).toBe(4);
    expect(((await send('get', '/items/articles_tags?fields=id&limit=-1')) as unknown[]).length).toBe(4);
    // Leaving the copy asks nothing: the edits went into it.
    await page.getByTestId('item-back').click();
    await page.waitForURL(/\/admin\/content\/articles$/);
    await page.close();
  });
});
