import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoEnglish } from '../english-leaks.ts';
import type { AdminHarness } from '../harness.ts';
import { animationsDone, chooseOption, startSignedInAdmin, type Send } from './interface-kit.ts';

/**
 * Many-to-any end to end: the relation built in the data model (junction, both relations, the list-m2a
 * alias and its options), a page filled with blocks of two collections in the item form (one picked, one
 * created in the drawer), shown in the list, and read back through REST and GraphQL.
 */
let harness: AdminHarness;
let token: string;
let send: Send;
const blocksOf = async (id: number) =>
  (await send('get', `/items/pages/${id}?fields=blocks.collection,blocks.item:block_text.texto,blocks.item:block_image.legenda`)).blocks;

beforeAll(async () => {
  ({ harness, token, send } = await startSignedInAdmin());
  await send('post', '/collections', { collection: 'pages', meta: { display_template: '{{titulo}}' }, fields: [{ field: 'titulo', type: 'string' }] });
  await send('post', '/collections', { collection: 'block_text', meta: { display_template: '{{texto}}' }, fields: [{ field: 'texto', type: 'string' }] });
  await send('post', '/collections', { collection: 'block_image', meta: { display_template: 'Image: {{legenda}}' }, fields: [{ field: 'legenda', type: 'string' }] });
  await send('post', '/items/block_text', [{ texto: 'Welcome aboard' }, { texto: 'Opening hours' }]);
});
afterAll(async () => {
  await harness?.close();
});

describe('many-to-any', () => {
  it('is built in the data model, filled from two collections in the item form, listed, and read back through REST and GraphQL', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/data-model/pages');
    await page.getByTestId('relation-create').click();
    await page.getByTestId('relation-kind').getByText('Many to any').click();
    await page.getByTestId('relation-field').fill('blocks');
    await animationsDone(page);
    await page.getByTestId('relation-allowed').click();
    const open = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
    await open.getByTitle('block_text', { exact: true }).click();
    await open.getByTitle('block_image', { exact: true }).click();
    await page.getByTestId('relation-field').click();
    await harness.screenshot(page, 'interfaces-m2a-builder');
    await page.getByTestId('relation-save').click();
    await page.getByTestId('field-row-blocks').waitFor();
    const relations = await send('get', '/relations/pages_blocks');
    expect(relations.find((relation: { field: string }) => relation.field === 'item')).toMatchObject({ related_collection: null, meta: { one_collection_field: 'collection', one_allowed_collections: ['block_text', 'block_image'], junction_field: 'pages_id' } });
    expect(await send('get', '/fields/pages/blocks')).toMatchObject({ type: 'alias', meta: { special: ['m2a'], interface: 'list-m2a' } });

    // The interface's options in the field drawer: defaults shown, a change saved under Directus's name (defaults are not stored).
    await page.getByTestId('field-edit-blocks').click();
    const options = page.getByTestId('interface-options');
    await options.waitFor();
    expect(await options.getByTestId('option-enableSelect').getByRole('switch').getAttribute('aria-checked')).toBe('true');
    await options.getByTestId('option-allowDuplicates').getByRole('switch').click();
    await page.getByTestId('field-save').click();
    await expect.poll(async () => (await send('get', '/fields/pages/blocks')).meta.options).toEqual({ allowDuplicates: true });

    // A new page: an existing text block, then a new image block made in the drawer.
    await page.goto('/admin/content/pages/+');
    await page.locator('#field-titulo').fill('Home');
    const blocks = page.getByTestId('many-to-any-blocks');
    await chooseOption(page, 'm2a-collection-blocks', 'Block Text');
    await blocks.getByTestId('m2a-item-blocks').locator('.ant-select').click();
    await page.locator('.ant-select-item-option', { hasText: 'Welcome aboard' }).click();
    await blocks.getByText('Welcome aboard').waitFor();
    await chooseOption(page, 'm2a-collection-blocks', 'Block Image');
    await page.getByTestId('create-related-blocks').click();
    const drawer = page.getByTestId('related-drawer-block_image');
    await drawer.locator('#field-legenda').fill('Harbour at dawn');
    await drawer.getByTestId('related-create-add').click();
    await drawer.waitFor({ state: 'hidden' });
    // Each row by its own collection's template.
    await blocks.getByText('Image: Harbour at dawn').waitFor();
    await harness.screenshot(page, 'interfaces-m2a-form');
    const created = page.waitForResponse((response) => response.url().includes('/items/pages') && response.request().method() === 'POST');
    await page.getByTestId('save-item').click();
    const response = await created;
    expect(response.status(), await response.text()).toBe(200);
    const [home] = await send('get', '/items/pages?fields=id&filter[titulo][_eq]=Home');
    expect(await blocksOf(home.id)).toEqual([
      { collection: 'block_text', item: { texto: 'Welcome aboard' } },
      { collection: 'block_image', item: { legenda: 'Harbour at dawn' } },
    ]);

    // The picked text block is linked by its key, not written again (no update in the activity log).
    expect(await send('get', '/activity?fields=id&filter[collection][_eq]=block_text&filter[action][_eq]=update')).toEqual([]);

    // GraphQL reads the same page and blocks.
    const graphql = await harness.app.request
      .post('/graphql')
      .set('Authorization', `Bearer ${token}`)
      .send({ query: '{ pages { titulo blocks { collection item { __typename ... on block_text { texto } ... on block_image { legenda } } } } }' });
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.pages).toEqual([
      {
        titulo: 'Home',
        blocks: [
          { collection: 'block_text', item: { __typename: 'block_text', texto: 'Welcome aboard' } },
          { collection: 'block_image', item: { __typename: 'block_image', legenda: 'Harbour at dawn' } },
        ],
      },
    ]);

    // The list shows each block with its collection (the m2a display), in a column the global preset shows.
    await send('post', '/presets', { collection: 'pages', layout: 'tabular', layout_query: { tabular: { fields: ['titulo', 'blocks'] } } });
    await page.goto('/admin/content/pages');
    const row = page.getByRole('row', { name: /Home/ });
    await row.getByText('Welcome aboard').waitFor();
    await row.getByText('Image: Harbour at dawn').waitFor();
    await harness.screenshot(page, 'interfaces-m2a-list');

    // Removing a block and saving unlinks it; the other stays.
    await page.goto(`/admin/content/pages/${home.id}`);
    await blocks.getByText('Image: Harbour at dawn').waitFor();
    await blocks.getByRole('listitem').filter({ hasText: 'Welcome aboard' }).getByRole('button', { name: 'Remove' }).click();
    const saved = page.waitForResponse((entry) => entry.url().includes(`/items/pages/${home.id}`) && entry.request().method() === 'PATCH');
    await page.getByTestId('save-item').click();
    expect((await saved).status()).toBe(200);
    expect(await blocksOf(home.id)).toEqual([{ collection: 'block_image', item: { legenda: 'Harbour at dawn' } }]);
  });

  it('speaks Brazilian Portuguese in the builder and the interface', async () => {
    await send('patch', '/users/me', { language: 'pt-BR' });
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/data-model/pages');
    await page.getByTestId('relation-create').click();
    await page.getByTestId('relation-kind').getByText('Muitos para qualquer').click();
    await page.getByText('Coleções de onde vêm os itens').waitFor();
    await expectNoEnglish(page);
    await page.goto('/admin/content/pages/+');
    await page.getByTestId('many-to-any-blocks').waitFor();
    await page.getByText('Coleção…').waitFor();
    await expectNoEnglish(page);
    await harness.screenshot(page, 'interfaces-m2a-pt-BR');
  });
});
