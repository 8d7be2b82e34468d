import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdmin, type AdminHarness } from './harness.ts';
import { seedNewsroom } from './seed.ts';

let harness: AdminHarness;
let send: Awaited<ReturnType<typeof seedNewsroom>>['send'];
beforeAll(async () => {
  harness = await startAdmin();
  ({ send } = await seedNewsroom(harness.app));
});
afterAll(async () => {
  await harness?.close();
});

async function openArticles(page: Page) {
  await page.getByTestId('nav-articles').click();
  await page.getByTestId('collection-title').filter({ hasText: 'Articles' }).waitFor();
}

describe('content', () => {
  it('creates, edits and deletes items, with a server validation error shown on its field', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await openArticles(page);
    await page.getByTestId('list-empty').getByText('No items yet').waitFor();
    await harness.screenshot(page, 'content-list-empty');

    await page.getByTestId('create-item').click();
    await page.getByTestId('item-title').filter({ hasText: 'New item' }).waitFor();
    await page.locator('#field-title').fill('Hello world');
    await page.locator('#field-slug').fill('hello');
    await page.locator('#field-words').fill('1234');
    await expect(page.getByTestId('words-words').textContent()).resolves.toBe('one thousand two hundred thirty-four');
    await page.locator('#field-author').click();
    await page.getByTitle('Ada Lovelace').click();
    await harness.screenshot(page, 'content-create');
    await page.getByTestId('save-item').click();
    await page.getByTestId('item-title').filter({ hasText: 'Hello world' }).waitFor();

    const [created] = await send('get', '/items/articles?fields=id,title,slug,words,author.name');
    expect(created).toMatchObject({ title: 'Hello world', slug: 'hello', words: 1234, author: { name: 'Ada Lovelace' } });

    // Edit: change the title and save; the revisions drawer lists the change.
    await page.locator('#field-title').fill('Hello again');
    await page.getByTestId('save-item').click();
    await page.getByTestId('item-title').filter({ hasText: 'Hello again' }).waitFor();
    await harness.screenshot(page, 'content-edit');

    // A second article with the same slug: the API's RECORD_NOT_UNIQUE lands on the slug field.
    await openArticles(page);
    await page.getByTestId('create-item').click();
    await page.locator('#field-title').fill('Duplicate');
    await page.locator('#field-slug').fill('hello');
    await page.getByTestId('save-item').click();
    await page.getByTestId('field-slug').locator('.ant-form-item-explain-error').waitFor();
    await harness.screenshot(page, 'content-validation-error');
    expect(await send('get', '/items/articles?fields=id')).toHaveLength(1);

    // The refused edits are still unsaved: leaving asks first, and discarding them leaves.
    await page.getByTestId('nav-articles').click();
    await page.getByTestId('unsaved-discard').click();
    await page.getByTestId('collection-title').filter({ hasText: 'Articles' }).waitFor();

    // The list shows the item with its author's name; delete it from its form.
    await page.getByRole('cell', { name: 'Hello again' }).waitFor();
    await page.getByRole('cell', { name: 'Ada Lovelace' }).waitFor();
    await page.getByRole('cell', { name: 'one thousand two hundred thirty-four' }).waitFor();
    await harness.screenshot(page, 'content-list');
    await page.getByRole('cell', { name: 'Hello again' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await page.getByTestId('collection-title').waitFor();
    await expect.poll(async () => (await send('get', '/items/articles?fields=id')).length).toBe(0);
  });

  it('searches, filters and bulk-deletes', async () => {
    await send('post', '/items/articles', [
      { title: 'Alpha', status: 'draft' },
      { title: 'Beta', status: 'published' },
      { title: 'Gamma', status: 'published' },
    ]);
    const page = await harness.newPage();
    await harness.signIn(page);
    await openArticles(page);
    await page.getByRole('cell', { name: 'Gamma' }).waitFor();

    await page.getByTestId('search').fill('alp');
    await page.getByTestId('search').press('Enter');
    await page.getByRole('cell', { name: 'Beta' }).waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'Alpha' }).waitFor();
    await page.getByTestId('search').fill('nothing like this');
    await page.getByTestId('search').press('Enter');
    await page.getByTestId('list-empty').getByText('No items match the search or filter').waitFor();
    await page.getByTestId('search').fill('');
    await page.getByTestId('search').press('Enter');

    await page.getByTestId('open-filter').click();
    await page.getByRole('button', { name: 'Add condition' }).click();
    await page.getByTestId('filter-builder').locator('.ant-select').first().click();
    await page.locator('.ant-select-item-option', { hasText: 'Status' }).click();
    // A dropdown field is filtered by its choices, "equals" first.
    await page.getByTestId('filter-builder').getByText('equals').waitFor();
    await page.getByTestId('filter-value-choice').click();
    await page.locator('.ant-select-item-option', { hasText: 'Published' }).click();
    await page.getByRole('cell', { name: 'Alpha' }).waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'Beta' }).waitFor();
    await harness.screenshot(page, 'content-filter');
    await page.getByRole('button', { name: 'Clear all' }).click();
    await page.getByTestId('collection-title').click();

    await page.getByRole('row', { name: /Alpha/ }).getByRole('checkbox').check();
    await page.getByRole('row', { name: /Beta/ }).getByRole('checkbox').check();
    await page.getByTestId('bulk-delete').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await expect.poll(async () => (await send('get', '/items/articles?fields=title')).map((item: { title: string }) => item.title)).toEqual(['Gamma']);
  });

  it('no lost updates: a save over someone else\'s opens the merge dialog, field by field, and the merged save keeps both', async () => {
    const article = await send('post', '/items/articles', { title: 'Shared draft', slug: 'shared-draft', words: 10 });
    const path = `/admin/content/articles/${article.id}`;
    // Two editors, each in their own browser context, open the same item.
    const mine = await harness.newPage();
    const theirs = await harness.newPage();
    for (const page of [mine, theirs]) {
      await harness.signIn(page);
      await page.goto(path);
      await expect.poll(() => page.locator('#field-title').inputValue(), { timeout: 60_000 }).toBe('Shared draft');
    }

    // I edit first; they change the same title and save. Whether or not their save has reached my form live
    // (collaborative editing keeps my edit and marks the clash), my save names the version I edited.
    await mine.locator('#field-title').fill('My headline');
    await mine.locator('#field-words').fill('250');
    await theirs.locator('#field-title').fill('Their headline');
    const theirSave = theirs.waitForResponse((response) => response.request().method() === 'PATCH' && response.url().includes(`/items/articles/${article.id}`));
    await theirs.getByTestId('save-item').click();
    expect((await theirSave).status()).toBe(200);

    const refused = mine.waitForResponse((response) => response.request().method() === 'PATCH' && response.url().includes(`/items/articles/${article.id}`));
    await mine.getByTestId('save-item').click();
    expect((await refused).status()).toBe(412);
    await mine.getByTestId('conflict-dialog').waitFor({ timeout: 60_000 });
    expect(await mine.getByTestId('conflict-theirs-title').textContent()).toBe('Their headline');
    expect(await mine.getByTestId('conflict-mine-title').textContent()).toBe('My headline');
    expect(await mine.getByTestId('conflict-theirs-words').textContent()).toBe('10');
    expect(await mine.getByTestId('conflict-mine-words').textContent()).toBe('250');
    await harness.screenshot(mine, 'content-save-conflict');
    // Nothing was lost so far: their save stands.
    expect(await send('get', `/items/articles/${article.id}?fields=title,words`)).toEqual({ title: 'Their headline', words: 10 });

    // Keep their title and my word count.
    await mine.getByTestId('conflict-pick-title-theirs').click();
    const merged = mine.waitForResponse((response) => response.request().method() === 'PATCH' && response.url().includes(`/items/articles/${article.id}`));
    await mine.getByTestId('conflict-save').click();
    expect((await merged).status()).toBe(200);
    await mine.getByTestId('conflict-dialog').waitFor({ state: 'hidden', timeout: 60_000 });
    expect(await send('get', `/items/articles/${article.id}?fields=title,words,slug`)).toEqual({ title: 'Their headline', words: 250, slug: 'shared-draft' });
    await expect.poll(() => mine.locator('#field-title').inputValue(), { timeout: 60_000 }).toBe('Their headline');
  });
});
