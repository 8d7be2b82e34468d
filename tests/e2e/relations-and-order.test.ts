import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdmin, type AdminHarness } from './harness.ts';
import { seedNewsroom } from './seed.ts';

/**
 * Manual sort by dragging rows (and the arrow buttons), and one-to-many / many-to-many lists that
 * create related items inline in a drawer besides picking existing ones.
 */
let harness: AdminHarness;
let send: Awaited<ReturnType<typeof seedNewsroom>>['send'];

beforeAll(async () => {
  harness = await startAdmin();
  ({ send } = await seedNewsroom(harness.app));
  // Chapters are ordered by hand (sort_field).
  await send('post', '/collections', {
    collection: 'chapters',
    meta: { icon: 'list', sort_field: 'sort', display_template: '{{title}}' },
    fields: [
      { field: 'title', type: 'string', meta: { required: true } },
      { field: 'sort', type: 'integer', meta: { hidden: true } },
    ],
  });
  await send('post', '/items/chapters', ['Prologue', 'Arrival', 'Storm', 'Epilogue'].map((title, index) => ({ title, sort: index + 1 })));
  // Tags of articles: many-to-many through articles_tags.
  await send('post', '/collections', { collection: 'tags', meta: { display_template: '{{label}}' }, fields: [{ field: 'label', type: 'string', schema: { is_nullable: false }, meta: { required: true } }] });
  await send('post', '/collections', {
    collection: 'articles_tags',
    meta: { hidden: true },
    schema: {},
    fields: [
      { field: 'articles_id', type: 'integer', meta: { hidden: true } },
      { field: 'tags_id', type: 'integer', meta: { hidden: true } },
    ],
  });
  await send('post', '/relations', { collection: 'articles_tags', field: 'articles_id', related_collection: 'articles', meta: { one_field: 'tags', junction_field: 'tags_id' }, schema: { on_delete: 'CASCADE' } });
  await send('post', '/relations', { collection: 'articles_tags', field: 'tags_id', related_collection: 'tags', meta: { junction_field: 'articles_id' }, schema: { on_delete: 'CASCADE' } });
  await send('post', '/items/tags', [{ label: 'science' }, { label: 'history' }]);
});
afterAll(async () => {
  await harness?.close();
});

async function chapterOrder(): Promise<string[]> {
  return (await send('get', '/items/chapters?fields=title&sort=sort')).map((chapter: { title: string }) => chapter.title);
}

async function listedOrder(page: Page): Promise<string[]> {
  return page.locator('.ant-table-tbody tr.ant-table-row').evaluateAll((rows) => rows.map((row) => ((row as unknown as { innerText: string }).innerText.trim().split('\n').pop() ?? '').trim()));
}

describe('manual sort', () => {
  it('reorders rows by drag and drop, and with the arrow buttons, through /utils/sort', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.getByTestId('nav-chapters').click();
    await page.getByRole('cell', { name: 'Epilogue' }).waitFor();
    await expect.poll(() => listedOrder(page)).toEqual(['Prologue', 'Arrival', 'Storm', 'Epilogue']);

    // Drag "Epilogue" onto "Arrival": it takes Arrival's place.
    const sorted = page.waitForResponse((response) => response.url().includes('/utils/sort/chapters'));
    await page.getByRole('row', { name: /Epilogue/ }).dragTo(page.getByRole('row', { name: /Arrival/ }));
    expect((await sorted).status()).toBe(204);
    await expect.poll(chapterOrder).toEqual(['Prologue', 'Epilogue', 'Arrival', 'Storm']);
    await expect.poll(() => listedOrder(page)).toEqual(['Prologue', 'Epilogue', 'Arrival', 'Storm']);
    await harness.screenshot(page, 'content-manual-sort');

    // Dragging down works too: "Prologue" onto "Storm".
    await page.getByRole('row', { name: /Prologue/ }).dragTo(page.getByRole('row', { name: /Storm/ }));
    await expect.poll(chapterOrder).toEqual(['Epilogue', 'Arrival', 'Storm', 'Prologue']);

    // The keyboard way: move "Arrival" up.
    await page.getByRole('row', { name: /Arrival/ }).getByRole('button', { name: 'Move up' }).click();
    await expect.poll(chapterOrder).toEqual(['Arrival', 'Epilogue', 'Storm', 'Prologue']);
    await expect.poll(() => listedOrder(page)).toEqual(['Arrival', 'Epilogue', 'Storm', 'Prologue']);
  });
});

describe('one-to-many and many-to-many lists', () => {
  it('creates a related item in a drawer (o2m), next to adding an existing one, saved with the parent', async () => {
    await send('post', '/items/articles', { title: 'Old piece' });
    const [ada] = await send('get', '/items/authors?fields=id&filter[name][_eq]=Ada Lovelace');
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto(`/admin/content/authors/${ada.id}`);
    const list = page.getByTestId('to-many-articles');
    await list.waitFor();

    // An existing article through the picker.
    await list.locator('.ant-select').click();
    await page.locator('.ant-select-item-option', { hasText: 'Old piece' }).click();
    await list.getByText('Old piece').waitFor();

    // A new one through the drawer: the articles form, without the author field (the API sets it).
    await page.getByTestId('create-related-articles').click();
    const drawer = page.getByTestId('related-drawer-articles');
    await drawer.getByText('New item in Articles').waitFor();
    await expect(drawer.locator('#field-author').count()).resolves.toBe(0);
    // Required fields are checked before the item is added.
    await drawer.getByTestId('related-create-add').click();
    await drawer.locator('.ant-form-item-explain-error').first().waitFor();
    await drawer.locator('#field-title').fill('Notes on the engine');
    await drawer.locator('#field-words').fill('2500');
    await harness.screenshot(page, 'content-related-drawer');
    await drawer.getByTestId('related-create-add').click();
    await drawer.waitFor({ state: 'hidden' });
    await list.getByText('Notes on the engine').waitFor();
    await list.getByText('Saved with this item').waitFor();
    await harness.screenshot(page, 'content-o2m-list');

    const saved = page.waitForResponse((response) => response.url().includes('/items/authors/') && response.request().method() === 'PATCH');
    await page.getByTestId('save-item').click();
    const response = await saved;
    expect(response.status(), `${response.request().postData()} → ${await response.text()}`).toBe(200);
    await expect
      .poll(async () => (await send('get', `/items/articles?fields=title,words&sort=title&filter[author][_eq]=${ada.id}`)))
      .toEqual([
        { title: 'Notes on the engine', words: 2500 },
        { title: 'Old piece', words: null },
      ]);
    await list.getByText('Saved with this item').waitFor({ state: 'detached' });
  });

  it('creates, adds and removes many-to-many items', async () => {
    const article = await send('post', '/items/articles', { title: 'Tagged', tags: [{ tags_id: 1 }] });
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto(`/admin/content/articles/${article.id}`);
    const list = page.getByTestId('to-many-tags');
    await list.getByText('science').waitFor();

    await list.locator('.ant-select').click();
    await page.locator('.ant-select-item-option', { hasText: 'history' }).click();
    await page.getByTestId('create-related-tags').click();
    const drawer = page.getByTestId('related-drawer-tags');
    await drawer.locator('#field-label').fill('engineering');
    await drawer.locator('#field-label').press('Enter');
    await drawer.waitFor({ state: 'hidden' });
    await list.getByText('engineering').waitFor();
    await list.getByRole('listitem').filter({ hasText: 'science' }).getByRole('button', { name: 'Remove' }).click();
    await list.getByText('science').waitFor({ state: 'detached' });

    await page.getByTestId('save-item').click();
    const tagsOf = async () => (await send('get', `/items/articles/${article.id}?fields=tags.tags_id.label`)).tags.map((row: { tags_id: { label: string } }) => row.tags_id.label).sort();
    await expect.poll(tagsOf).toEqual(['engineering', 'history']);
    expect((await send('get', '/items/tags?fields=label&sort=label')).map((tag: { label: string }) => tag.label)).toEqual(['engineering', 'history', 'science']);
  });
});
