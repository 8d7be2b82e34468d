import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { englishLeaks } from '../english-leaks.ts';
import type { AdminHarness } from '../harness.ts';
import { startSignedInAdmin, type Send } from './interface-kit.ts';

/**
 * Issue 33: the bulk-edit drawer edits each chosen field with its catalogue interface (slider, colour with
 * presets, tags), and one PATCH writes them to the selected items only; in en-US and pt-BR.
 */
let harness: AdminHarness;
let send: Send;
const keys: number[] = [];

beforeAll(async () => {
  ({ harness, send } = await startSignedInAdmin());
  await send('post', '/collections', {
    collection: 'produtos',
    meta: { display_template: '{{nome}}', sort_field: null },
    fields: [
      { field: 'nome', type: 'string' },
      { field: 'nota', type: 'integer', meta: { interface: 'slider', options: { minValue: 0, maxValue: 10, stepInterval: 1 } } },
      { field: 'cor', type: 'string', meta: { interface: 'select-color', options: { presets: [{ name: 'Vermelho', color: '#FF0000' }] } } },
      { field: 'etiquetas', type: 'json', meta: { interface: 'tags', special: ['cast-json'], options: { presets: ['novo', 'oferta'] } } },
    ],
  });
  for (const nome of ['Caneca', 'Camiseta', 'Boné']) keys.push((await send('post', '/items/produtos', { nome, nota: 1, cor: '#000000', etiquetas: ['novo'] })).id);
});
afterAll(async () => {
  await harness?.close();
});

/** Selects the list's first two rows (Caneca, Camiseta) and opens the bulk-edit drawer with slider, colour and tags chosen. */
async function openBulkEdit(page: Page, labels: string[]) {
  await page.goto('/admin/content/produtos?sort=id');
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await rows.first().waitFor({ timeout: 60_000 });
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  await page.getByTestId('bulk-edit').click();
  const drawer = page.getByTestId('bulk-edit-drawer');
  await drawer.getByTestId('bulk-edit-fields').click();
  for (const label of labels) await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle(label, { exact: true }).click();
  // A multiple select stays open: a click on the title closes it (Escape would close the drawer).
  await drawer.locator('.ant-drawer-title').click();
  for (const field of ['nota', 'cor', 'etiquetas']) await drawer.getByTestId(`bulk-field-${field}`).waitFor();
  return drawer;
}

describe('bulk edit with the catalogue interfaces', () => {
  it('sets a slider, a colour preset and tags on the selected items in one PATCH', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    const writes: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && /\/items\/produtos(\?|$)/.test(request.url())) writes.push(request.postDataJSON());
    });
    const drawer = await openBulkEdit(page, ['Nota', 'Cor', 'Etiquetas']);
    expect(await drawer.getByTestId('slider-nota').count()).toBe(1);
    await drawer.getByTestId('slider-nota').locator('.ant-input-number-input').fill('8');
    await drawer.getByTestId('color-cor').click();
    await page.locator('.ant-color-picker-presets-color').first().click();
    await drawer.getByTestId('color-cor').getByText('#FF0000').waitFor();
    // The picker's pop-up stays open until a click elsewhere.
    await drawer.locator('.ant-drawer-title').click();
    await page.locator('.ant-color-picker-presets-color').first().waitFor({ state: 'hidden' });
    await drawer.getByTestId('tags-etiquetas').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('oferta', { exact: true }).click();
    await page.keyboard.type('verão');
    await page.keyboard.press('Enter');
    await drawer.locator('.ant-drawer-title').click();
    await harness.screenshot(page, 'interfaces-bulk-edit');
    await drawer.getByTestId('bulk-edit-apply').click();
    await page.getByTestId('bulk-toolbar').waitFor({ state: 'detached' });

    expect(writes).toEqual([{ keys: [keys[0], keys[1]], data: { nota: 8, cor: '#FF0000', etiquetas: ['oferta', 'verão'] } }]);
    expect(await send('get', '/items/produtos?fields=nome,nota,cor,etiquetas&sort=id')).toEqual([
      { nome: 'Caneca', nota: 8, cor: '#FF0000', etiquetas: ['oferta', 'verão'] },
      { nome: 'Camiseta', nota: 8, cor: '#FF0000', etiquetas: ['oferta', 'verão'] },
      { nome: 'Boné', nota: 1, cor: '#000000', etiquetas: ['novo'] },
    ]);
  });

  it('speaks Brazilian Portuguese', async () => {
    await send('patch', '/users/me', { language: 'pt-BR' });
    const page = await harness.newPage();
    await harness.signIn(page);
    const drawer = await openBulkEdit(page, ['Nota', 'Cor', 'Etiquetas']);
    await drawer.getByText('Editar 2 itens').waitFor();
    expect(await englishLeaks(page)).toEqual([]);
  });
});
