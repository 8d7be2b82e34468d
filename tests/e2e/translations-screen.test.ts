import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from './harness.ts';

let harness: AdminHarness;
let token: string;

const api = (method: ApiMethod, path: string, body?: object) => callApi(harness, token, method, path, body);

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  await api('patch', '/users/me', { last_page: null, language: 'en-US' });
  await api('post', '/collections', {
    collection: 'news',
    meta: { translations: [{ language: 'en-US', translation: '$t:collections.news' }, { language: 'pt-BR', translation: '$t:collections.news' }] },
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: { hidden: true } },
      { field: 'headline', type: 'string', meta: { note: '$t:notes.headline', translations: [{ language: 'pt-BR', translation: '$t:fields.headline' }] } },
    ],
  });
});
afterAll(async () => {
  await harness?.close();
});

describe('the Translations screen and $t: texts', () => {
  it('adds texts per language, and $t: names and notes show them in the user\'s language', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/translations');
    await page.getByTestId('translations-title').waitFor();

    const add = async (key: string, language: string, value: string) => {
      await page.getByTestId('translation-create').click();
      await page.getByTestId('translation-key').fill(key);
      await page.getByTestId('translation-language').locator('input').fill(language);
      await page.getByTestId('translation-value').fill(value);
      await page.getByTestId('translation-save').click();
      await page.getByTestId(`translation-cell-${key}-${language}`).filter({ hasText: value }).waitFor();
    };
    await add('collections.news', 'en-US', 'Newsroom');
    await add('collections.news', 'pt-BR', 'Redação');
    await add('fields.headline', 'pt-BR', 'Manchete');
    await add('notes.headline', 'en-US', 'Keep it under ten words.');
    // An unknown language is refused by the server, said in the modal.
    await page.getByTestId('translation-create').click();
    await page.getByTestId('translation-key').fill('labels.x');
    await page.getByTestId('translation-language').locator('input').fill('zz');
    await page.getByTestId('translation-value').fill('x');
    await page.getByTestId('translation-save').click();
    await page.getByTestId('translation-error').waitFor();
    await page.keyboard.press('Escape');
    await harness.screenshot(page, 'translations-screen');

    // Editing a cell to empty removes that language.
    await page.getByTestId('translation-cell-notes.headline-en-US').click();
    await page.getByTestId('translation-value').fill('Short and clear.');
    await page.getByTestId('translation-save').click();
    await expect.poll(async () => (await api('get', '/translations?filter[key][_eq]=notes.headline&fields=language,value')) as unknown[], { timeout: 60_000 }).toEqual([{ language: 'en-US', value: 'Short and clear.' }]);

    // The menu and the form resolve $t: in English...
    await page.goto('/admin/content/news/+');
    await page.locator('#field-headline').waitFor();
    await expect.poll(() => page.getByRole('menuitem', { name: 'Newsroom' }).count(), { timeout: 60_000 }).toBe(1);
    expect(await page.getByTestId('field-headline').locator('.ant-form-item-extra').textContent()).toBe('Short and clear.');
    // ...and in Portuguese (a missing text shows its key).
    await api('patch', '/users/me', { language: 'pt-BR' });
    await page.reload();
    await page.locator('#field-headline').waitFor();
    await expect.poll(() => page.getByRole('menuitem', { name: 'Redação' }).count(), { timeout: 60_000 }).toBe(1);
    expect(await page.getByTestId('field-headline').locator('label').textContent()).toBe('Manchete');
    expect(await page.getByTestId('field-headline').locator('.ant-form-item-extra').textContent()).toBe('notes.headline');
    await harness.screenshot(page, 'translations-resolved-pt-BR');
  });
});
