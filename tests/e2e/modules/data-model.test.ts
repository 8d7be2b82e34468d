import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdmin, type AdminHarness } from '../harness.ts';

let harness: AdminHarness;
beforeAll(async () => {
  harness = await startAdmin();
});
afterAll(async () => {
  await harness?.close();
});

describe('data model screens', () => {
  it('creates a collection with fields and a relation, which then shows in the content navigation', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.getByTestId('nav-module-collections').click();
    await page.getByTestId('data-model-title').waitFor();
    await harness.screenshot(page, 'data-model-list-empty');

    await page.getByTestId('data-model-create').click();
    await page.getByTestId('create-collection-name').fill('articles');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/admin\/data-model\/articles$/);
    await page.getByTestId('collection-title').waitFor();

    // A string field with a required flag, then a dropdown.
    await page.getByTestId('field-create').click();
    await page.getByTestId('field-name').fill('title');
    await page.getByTestId('field-required').click();
    await page.getByTestId('field-save').click();
    await page.getByTestId('field-row-title').waitFor();

    await page.getByTestId('field-create').click();
    await page.getByTestId('field-name').fill('status');
    await page.getByTestId('field-interface').click();
    // The option of the open list (a busy machine can still be animating the previous drawer away).
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('Dropdown', { exact: true }).click();
    await page.getByTestId('field-interface').getByTitle('Dropdown', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add choice' }).click();
    await page.getByPlaceholder('Value').fill('draft');
    await harness.screenshot(page, 'data-model-field-drawer');
    await page.getByTestId('field-save').click();
    await page.getByTestId('field-row-status').waitFor();

    // The data model wrote real columns and metadata.
    const token = await harness.app.login();
    const fields = await harness.app.request.get('/fields/articles').set('Authorization', `Bearer ${token}`).expect(200);
    const byName = Object.fromEntries(fields.body.data.map((field: { field: string }) => [field.field, field]));
    expect(byName.title).toMatchObject({ type: 'string', meta: { required: true, interface: 'input' } });
    expect(byName.status).toMatchObject({ type: 'string', meta: { interface: 'select-dropdown', options: { choices: [{ text: 'draft', value: 'draft' }] } } });

    // New fields go last (title, then status); moving status up puts it above title.
    await page.getByTestId('field-up-status').click();
    await expect.poll(async () => {
      const response = await harness.app.request.get('/fields/articles').set('Authorization', `Bearer ${token}`);
      const sorted = response.body.data.filter((field: { meta: { sort: number | null } }) => field.meta.sort !== null).sort((a: { meta: { sort: number } }, b: { meta: { sort: number } }) => a.meta.sort - b.meta.sort);
      return sorted.map((field: { field: string }) => field.field);
    }).toEqual(['id', 'status', 'title']);

    // A second collection and a many-to-one relation to it.
    await harness.app.request.post('/collections').set('Authorization', `Bearer ${token}`).send({ collection: 'authors', fields: [{ field: 'name', type: 'string' }] }).expect(200);
    await page.reload();
    await page.getByTestId('relation-create').click();
    await page.getByTestId('relation-field').fill('author');
    await page.getByTestId('relation-related').click();
    await page.getByTitle('authors', { exact: true }).click();
    await page.getByLabel('List field on the related collection (optional)').fill('articles');
    await harness.screenshot(page, 'data-model-relation-drawer');
    await page.getByTestId('relation-save').click();
    await page.getByTestId('field-row-author').waitFor();
    const relation = await harness.app.request.get('/relations/articles/author').set('Authorization', `Bearer ${token}`).expect(200);
    expect(relation.body.data).toMatchObject({ related_collection: 'authors', meta: { one_field: 'articles' } });
    await harness.screenshot(page, 'data-model-collection');

    // The new collection is in the content navigation and opens its item list.
    await page.getByTestId('nav-articles').click();
    await page.waitForURL(/\/admin\/content\/articles$/);

    await page.goto('/admin/data-model');
    await page.getByTestId('collection-row-authors').waitFor();
    await harness.screenshot(page, 'data-model-list');
  });

  it('shows a server error on the field it names', async () => {
    const page = await harness.newPage();
    const token = await harness.app.login();
    await harness.app.request.post('/collections').set('Authorization', `Bearer ${token}`).send({ collection: 'pages', fields: [{ field: 'title', type: 'string' }] }).expect(200);
    await harness.signIn(page);
    await page.goto('/admin/data-model/pages');
    await page.getByTestId('field-create').click();
    // "title" exists: the API refuses it and names the field.
    await page.getByTestId('field-name').fill('title');
    await page.getByTestId('field-save').click();
    await expect.poll(async () => (await page.locator('.ant-form-item-explain-error').allTextContents()).join(' ')).toMatch(/title/);
  });
});
