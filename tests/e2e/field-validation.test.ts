import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from './harness.ts';

let harness: AdminHarness;
let token: string;
const MESSAGE = 'Slugs use lowercase letters, digits and dashes.';

const api = (method: ApiMethod, path: string, body?: object) => callApi(harness, token, method, path, body);

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  await api('post', '/collections', {
    collection: 'pages',
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: { hidden: true } },
      { field: 'title', type: 'string', meta: { sort: 1 } },
      { field: 'slug', type: 'string', meta: { sort: 2 } },
    ],
  });
});
afterAll(async () => {
  await harness?.close();
});

describe('field validation', () => {
  it('sets a rule and its message in the data model, and the item form shows the message on the field', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/data-model/pages');
    await page.getByTestId('field-edit-slug').click();
    const drawer = page.locator('.ant-drawer-content');
    const rule = drawer.getByLabel('Validation rule');
    // A rule that is not a filter is refused in the form before anything is sent.
    await rule.fill('{ "_regex": "x" }');
    await page.getByTestId('field-validation-message').fill(MESSAGE);
    await page.getByTestId('field-save').click();
    await drawer.locator('.ant-form-item-explain-error').first().waitFor();
    expect((await api('get', '/fields/pages/slug')).meta.validation).toBeNull();

    await rule.fill('{ "slug": { "_regex": "^[a-z0-9-]+$" } }');
    await harness.screenshot(page, 'field-validation-drawer');
    await page.getByTestId('field-save').click();
    await expect.poll(async () => (await api('get', '/fields/pages/slug')).meta, { timeout: 60_000 }).toMatchObject({ validation: { slug: { _regex: '^[a-z0-9-]+$' } }, validation_message: MESSAGE });

    await page.goto('/admin/content/pages/+');
    await page.locator('#field-title').waitFor();
    await page.locator('#field-title').fill('About us');
    await page.locator('#field-slug').fill('About Us');
    await page.getByTestId('save-item').click();
    const explain = page.getByTestId('field-slug').locator('.ant-form-item-explain-error');
    await explain.waitFor();
    expect(await explain.textContent()).toBe(MESSAGE);
    await harness.screenshot(page, 'field-validation-item-form');
    expect(await api('get', '/items/pages')).toEqual([]);

    await page.locator('#field-slug').fill('about-us');
    await page.getByTestId('save-item').click();
    await expect.poll(async () => api('get', '/items/pages?fields=title,slug'), { timeout: 60_000 }).toEqual([{ title: 'About us', slug: 'about-us' }]);
  });
});
