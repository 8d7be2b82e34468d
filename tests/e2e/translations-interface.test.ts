import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from './harness.ts';

let harness: AdminHarness;
let token: string;

const api = (method: ApiMethod, path: string, body?: object) => callApi(harness, token, method, path, body);

const translationsOf = async (id: number) =>
  (await api('get', `/items/posts_translations?fields=languages_code,headline,body&filter[posts_id][_eq]=${id}&sort=languages_code`)) as Array<Record<string, unknown>>;

/** Types into the translated field `name` of the open language tab. */
async function fill(page: Page, language: string, name: 'headline' | 'body', text: string) {
  const pane = page.getByTestId(`translation-${language}`);
  const input = pane.locator(name === 'headline' ? 'input' : 'textarea').first();
  await input.fill(text);
}

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  await api('post', '/collections', {
    collection: 'languages',
    meta: { display_template: '{{name}}' },
    fields: [
      { field: 'code', type: 'string', schema: { is_primary_key: true } },
      { field: 'name', type: 'string' },
    ],
  });
  await api('post', '/items/languages', [{ code: 'en-US', name: 'English' }, { code: 'pt-BR', name: 'Português' }]);
  await api('post', '/collections', { collection: 'posts', fields: [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: { hidden: true } }, { field: 'slug', type: 'string' }] });
  await api('post', '/collections', {
    collection: 'posts_translations',
    meta: { hidden: true },
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: { hidden: true } },
      { field: 'posts_id', type: 'integer', meta: { hidden: true } },
      { field: 'languages_code', type: 'string', meta: { hidden: true } },
      { field: 'headline', type: 'string' },
      { field: 'body', type: 'text', meta: { interface: 'input-multiline' } },
    ],
  });
  await api('post', '/fields/posts', { field: 'translations', type: 'alias', meta: { special: ['translations'], interface: 'translations' } });
  await api('post', '/relations', { collection: 'posts_translations', field: 'languages_code', related_collection: 'languages', meta: { junction_field: 'posts_id' } });
  await api('post', '/relations', { collection: 'posts_translations', field: 'posts_id', related_collection: 'posts', meta: { one_field: 'translations', junction_field: 'languages_code', one_deselect_action: 'delete' } });
});
afterAll(async () => {
  await harness?.close();
});

describe('the translations interface', () => {
  it('edits one tab per language with its completeness, side by side, and saves only what changed', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/content/posts/+');
    await page.getByTestId('translations-translations').waitFor();
    // The user's language (en-US) opens first; nothing is filled yet.
    expect(await page.getByTestId('translation-progress-en-US').textContent()).toBe('0/2');
    await page.locator('#field-slug').fill('hello');
    await fill(page, 'en-US', 'headline', 'Hello');
    await fill(page, 'en-US', 'body', 'The first post.');
    await expect.poll(() => page.getByTestId('translation-progress-en-US').textContent(), { timeout: 60_000 }).toBe('2/2');

    await page.getByTestId('translation-tab-pt-BR').click();
    // Translate with English beside.
    await page.getByTestId('translations-beside').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('English', { exact: true }).click();
    await page.getByTestId('translation-en-US-beside').waitFor();
    expect(await page.getByTestId('translation-en-US-beside').locator('input').first().inputValue()).toBe('Hello');
    await fill(page, 'pt-BR', 'headline', 'Olá');
    await expect.poll(() => page.getByTestId('translation-progress-pt-BR').textContent(), { timeout: 60_000 }).toBe('1/2');
    await harness.screenshot(page, 'translations-interface');
    await page.getByTestId('save-item').click();

    await expect.poll(async () => (await api('get', '/items/posts?fields=id,slug')) as unknown[], { timeout: 60_000 }).toHaveLength(1);
    const [post] = (await api('get', '/items/posts?fields=id')) as Array<{ id: number }>;
    await expect.poll(() => translationsOf(post!.id), { timeout: 60_000 }).toEqual([
      { languages_code: 'en-US', headline: 'Hello', body: 'The first post.' },
      { languages_code: 'pt-BR', headline: 'Olá', body: null },
    ]);
    const rowIds = ((await api('get', `/items/posts_translations?fields=id&filter[posts_id][_eq]=${post!.id}&sort=languages_code`)) as Array<{ id: number }>).map((row) => row.id);

    // Editing: a changed English headline is an update of that row; emptying Portuguese removes its row.
    await page.goto(`/admin/content/posts/${post!.id}`);
    await page.getByTestId('translations-translations').waitFor();
    await expect.poll(() => page.getByTestId('translation-progress-pt-BR').textContent(), { timeout: 60_000 }).toBe('1/2');
    await fill(page, 'en-US', 'headline', 'Hello again');
    await page.getByTestId('translation-tab-pt-BR').click();
    await fill(page, 'pt-BR', 'headline', '');
    await page.getByTestId('save-item').click();
    await expect.poll(() => translationsOf(post!.id), { timeout: 60_000 }).toEqual([{ languages_code: 'en-US', headline: 'Hello again', body: 'The first post.' }]);
    const kept = (await api('get', `/items/posts_translations?fields=id&filter[posts_id][_eq]=${post!.id}`)) as Array<{ id: number }>;
    expect(kept.map((row) => row.id)).toEqual([rowIds[0]]);
  });
});
