import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoColourImage } from '../../helpers/images.ts';
import { englishLeaks } from '../english-leaks.ts';
import type { AdminHarness } from '../harness.ts';
import { animationsDone, chooseOption, startSignedInAdmin, type Send } from './interface-kit.ts';

/**
 * The relational part of the catalogue's second half: the tree view of a recursive one-to-many (an item
 * dragged into another branch, saved with the parent), and the image field's crop through the image
 * editor; in en-US and pt-BR.
 */
let harness: AdminHarness;
let send: Send;
let token: string;
const keys: Record<string, number> = {};
let image: string;

beforeAll(async () => {
  ({ harness, send, token } = await startSignedInAdmin());
  await send('post', '/collections', { collection: 'categorias', meta: { display_template: '{{nome}}' }, fields: [{ field: 'nome', type: 'string' }] });
  await send('post', '/fields/categorias', { field: 'pai', type: 'integer', meta: { interface: 'select-dropdown-m2o', special: ['m2o'] } });
  await send('post', '/fields/categorias', { field: 'filhos', type: 'alias', meta: { interface: 'list-o2m', special: ['o2m'] } });
  await send('post', '/relations', { collection: 'categorias', field: 'pai', related_collection: 'categorias', meta: { one_field: 'filhos' }, schema: { on_delete: 'SET NULL' } });
  keys.raiz = (await send('post', '/items/categorias', { nome: 'Raiz' })).id;
  keys.frutas = (await send('post', '/items/categorias', { nome: 'Frutas', pai: keys.raiz })).id;
  keys.doces = (await send('post', '/items/categorias', { nome: 'Doces', pai: keys.raiz })).id;
  keys.maca = (await send('post', '/items/categorias', { nome: 'Maçã', pai: keys.frutas })).id;
  keys.solta = (await send('post', '/items/categorias', { nome: 'Avulsa' })).id;

  const upload = await harness.app.request.post('/files').set('Authorization', `Bearer ${token}`).attach('file', await twoColourImage(400, 200), 'metades.png');
  expect(upload.status).toBe(200);
  image = upload.body.data.id;
  await send('post', '/collections', { collection: 'albuns', meta: { display_template: '{{nome}}' }, fields: [{ field: 'nome', type: 'string' }] });
  await send('post', '/fields/albuns', { field: 'capa', type: 'uuid', meta: { interface: 'file-image', special: ['m2o'] } });
  await send('post', '/relations', { collection: 'albuns', field: 'capa', related_collection: 'tessera_files', schema: { on_delete: 'SET NULL' } });
});
afterAll(async () => {
  await harness?.close();
});

/** Drags one tree node onto the lower half of another (an expanded branch there takes it as its child). */
async function dragInto(page: Awaited<ReturnType<AdminHarness['newPage']>>, from: number, to: number): Promise<void> {
  const source = (await page.getByTestId(`tree-node-${from}`).boundingBox())!;
  const target = (await page.getByTestId(`tree-node-${to}`).boundingBox())!;
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2 + 8, { steps: 4 });
  await page.mouse.move(target.x + target.width / 2, target.y + target.height * 0.75, { steps: 10 });
  await page.mouse.up();
}

describe('tree view and image', () => {
  it('shows the branches under the item, moves an item into another branch, adds one, and saves the tree with the item', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    // A recursive one-to-many chooses between the list and the tree in its field drawer.
    await page.goto('/admin/data-model/categorias');
    // The machine these run on may be loaded: the first screen after signing in gets time to come.
    await page.getByTestId('field-edit-filhos').click({ timeout: 60_000 });
    await chooseOption(page, 'field-interface', 'Tree view');
    await page.getByTestId('field-save').click();
    await expect.poll(async () => (await send('get', '/fields/categorias/filhos')).meta.interface).toBe('list-o2m-tree-view');
    await page.goto(`/admin/content/categorias/${keys.raiz}`);
    const tree = page.getByTestId('tree-view-filhos');
    for (const name of ['Frutas', 'Doces', 'Maçã']) await tree.getByText(name, { exact: true }).waitFor({ timeout: 60_000 });
    // Maçã is nested under Frutas, two levels down.
    expect(await tree.locator('.ant-tree-treenode', { has: page.getByTestId(`tree-node-${keys.maca}`) }).locator('.ant-tree-indent-unit').count()).toBe(1);

    await dragInto(page, keys.doces!, keys.frutas!);
    await expect.poll(() => tree.locator('.ant-tree-treenode', { has: page.getByTestId(`tree-node-${keys.doces}`) }).locator('.ant-tree-indent-unit').count()).toBe(1);
    await tree.locator('.ant-select').click();
    await page.locator('.ant-select-item-option', { hasText: 'Avulsa' }).click();
    await tree.getByTestId(`tree-node-${keys.solta}`).waitFor();
    await harness.screenshot(page, 'interfaces-tree-view');

    const saved = page.waitForResponse((response) => response.url().includes(`/items/categorias/${keys.raiz}`) && response.request().method() === 'PATCH');
    await page.getByTestId('save-item').click();
    expect((await saved).status()).toBe(200);
    const parents = await send('get', '/items/categorias?fields=nome,pai&sort=id');
    expect(parents).toEqual([
      { nome: 'Raiz', pai: null },
      { nome: 'Frutas', pai: keys.raiz },
      { nome: 'Doces', pai: keys.frutas },
      { nome: 'Maçã', pai: keys.frutas },
      { nome: 'Avulsa', pai: keys.raiz },
    ]);
  });

  it('crops the chosen image with the image editor, keeping the same file', async () => {
    const album = (await send('post', '/items/albuns', { nome: 'Verão', capa: image })).id;
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto(`/admin/content/albuns/${album}`);
    const field = page.getByTestId('file-field-capa');
    await field.getByTestId('file-chosen').waitFor();
    await field.getByTestId('file-edit-image').click();
    // The ratio is picked once the editor shows the whole image and has stopped zooming in (a pick made
    // earlier was lost in a whole run: the size stayed 400×200).
    await expect.poll(() => page.getByTestId('image-size').textContent()).toBe('400×200');
    await animationsDone(page);
    await page.getByTestId('image-ratio').getByText('1:1', { exact: true }).click();
    await expect.poll(() => page.getByTestId('image-size').textContent()).toBe('200×200');
    const edited = page.waitForResponse((response) => response.url().endsWith(`/files/${image}/edit`));
    await page.getByTestId('image-save').click();
    expect((await edited).status()).toBe(200);
    expect(await send('get', `/files/${image}?fields=width,height`)).toEqual({ width: 200, height: 200 });
    await field.getByText('200×200').waitFor();
    expect((await send('get', `/items/albuns/${album}?fields=capa`)).capa).toBe(image);
    // Closed: an open form holds the field it last edited for its session (collaborative editing), and
    // the next test opens the same item in another one.
    await page.close();
  });

  it('speaks Brazilian Portuguese', async () => {
    await send('patch', '/users/me', { language: 'pt-BR' });
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto(`/admin/content/categorias/${keys.raiz}`);
    await page.getByTestId('tree-view-filhos').getByText('Frutas', { exact: true }).waitFor({ timeout: 60_000 });
    expect(await englishLeaks(page)).toEqual([]);
    const album = (await send('get', '/items/albuns?fields=id&limit=1'))[0].id;
    await page.goto(`/admin/content/albuns/${album}`);
    await page.getByTestId('file-field-capa').getByText('Editar imagem').waitFor();
    expect(await englishLeaks(page)).toEqual([]);
  });
});
