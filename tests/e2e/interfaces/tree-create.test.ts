import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { englishLeaks } from '../english-leaks.ts';
import type { AdminHarness } from '../harness.ts';
import { startSignedInAdmin, type Send } from './interface-kit.ts';

/**
 * Issue 33: the tree view (`list-o2m-tree-view`) creates a child in a drawer of the collection's own form,
 * and that drawer shows no tree of its own (nothing recursive: no drawer in the drawer, no list of the
 * page's item); the new item, moved into a branch, is created there with the parent's save; en-US and pt-BR.
 */
let harness: AdminHarness;
let send: Send;
const keys: Record<string, number> = {};

beforeAll(async () => {
  ({ harness, send } = await startSignedInAdmin());
  await send('post', '/collections', { collection: 'categorias', meta: { display_template: '{{nome}}' }, fields: [{ field: 'nome', type: 'string' }] });
  await send('post', '/fields/categorias', { field: 'pai', type: 'integer', meta: { interface: 'select-dropdown-m2o', special: ['m2o'] } });
  await send('post', '/fields/categorias', { field: 'filhos', type: 'alias', meta: { interface: 'list-o2m-tree-view', special: ['o2m'] } });
  await send('post', '/relations', { collection: 'categorias', field: 'pai', related_collection: 'categorias', meta: { one_field: 'filhos' }, schema: { on_delete: 'SET NULL' } });
  keys.raiz = (await send('post', '/items/categorias', { nome: 'Raiz' })).id;
  keys.frutas = (await send('post', '/items/categorias', { nome: 'Frutas', pai: keys.raiz })).id;
  keys.maca = (await send('post', '/items/categorias', { nome: 'Maçã', pai: keys.frutas })).id;
});
afterAll(async () => {
  await harness?.close();
});

/** Opens the root item's create drawer from its tree and answers the drawer. */
async function openCreateDrawer(page: Page) {
  await page.goto(`/admin/content/categorias/${keys.raiz}`);
  const tree = page.getByTestId('tree-view-filhos');
  await tree.getByText('Maçã', { exact: true }).waitFor({ timeout: 60_000 });
  await tree.getByTestId('create-related-filhos').click();
  const drawer = page.getByTestId('related-drawer-categorias');
  await drawer.locator('#field-nome').waitFor();
  return drawer;
}

describe('tree view: a child made in place', () => {
  it('creates an item in a drawer without a tree of its own, moves it into a branch, and saves it there with the parent', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    const drawer = await openCreateDrawer(page);
    // Nothing recursive in the drawer: neither the tree (nor its create button), nor the parent field the API fills.
    expect(await drawer.getByTestId('tree-view-filhos').count()).toBe(0);
    expect(await drawer.getByTestId('field-filhos').count()).toBe(0);
    expect(await drawer.getByTestId('field-pai').count()).toBe(0);
    await drawer.locator('#field-nome').fill('Bananas');
    await drawer.getByTestId('related-create-add').click();
    await drawer.waitFor({ state: 'detached' });

    const tree = page.getByTestId('tree-view-filhos');
    const fresh = tree.getByTestId('tree-node-new:1');
    await fresh.getByText('Bananas').waitFor();
    // Onto the lower half of Frutas (an open branch): Bananas becomes its child, beside Maçã.
    const source = (await fresh.boundingBox())!;
    const target = (await tree.getByTestId(`tree-node-${keys.frutas}`).boundingBox())!;
    await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
    await page.mouse.down();
    await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2 - 8, { steps: 4 });
    await page.mouse.move(target.x + target.width / 2, target.y + target.height * 0.75, { steps: 10 });
    await page.mouse.up();
    await expect.poll(() => tree.locator('.ant-tree-treenode', { has: page.getByTestId('tree-node-new:1') }).locator('.ant-tree-indent-unit').count()).toBe(1);
    await harness.screenshot(page, 'interfaces-tree-create');

    const saved = page.waitForResponse((response) => response.url().includes(`/items/categorias/${keys.raiz}`) && response.request().method() === 'PATCH');
    await page.getByTestId('save-item').click();
    expect((await saved).status()).toBe(200);
    expect(await send('get', '/items/categorias?fields=nome,pai&sort=id')).toEqual([
      { nome: 'Raiz', pai: null },
      { nome: 'Frutas', pai: keys.raiz },
      { nome: 'Maçã', pai: keys.frutas },
      { nome: 'Bananas', pai: keys.frutas },
    ]);
    // Read again after the save: the new item is an item of the tree like the others.
    const bananas = (await send('get', '/items/categorias?filter[nome][_eq]=Bananas&fields=id'))[0].id;
    await tree.getByTestId(`tree-node-${bananas}`).waitFor();
  });

  it('speaks Brazilian Portuguese', async () => {
    await send('patch', '/users/me', { language: 'pt-BR' });
    const page = await harness.newPage();
    await harness.signIn(page);
    const drawer = await openCreateDrawer(page);
    await drawer.locator('#field-nome').fill('Uvas');
    await drawer.getByTestId('related-create-add').click();
    await page.getByTestId('tree-view-filhos').getByTestId('tree-node-new:1').getByText('Uvas').waitFor();
    expect(await englishLeaks(page)).toEqual([]);
  });
});
