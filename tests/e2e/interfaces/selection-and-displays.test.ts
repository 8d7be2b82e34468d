import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoEnglish } from '../english-leaks.ts';
import type { AdminHarness } from '../harness.ts';
import { startSignedInAdmin, type Send } from './interface-kit.ts';

/**
 * The selection interfaces (radio buttons, checkboxes, checkbox tree, colour with presets, icon, toggle with a
 * label) in the item form, and the displays (labels, colour dot, icon, yes/no, rating, formatted value,
 * relative date-time, file type) in the list; a display chosen with its options in the field drawer.
 */
let harness: AdminHarness;
let send: Send;
/** The browser's window, typed for what the tests use (their TypeScript has no DOM types). */
type StyledWindow = { getComputedStyle(element: unknown): { color: string; backgroundColor: string } };
const choices = [
  { text: 'Rascunho', value: 'rascunho', foreground: '#ffffff', background: '#888888' },
  { text: 'Publicado', value: 'publicado', foreground: '#ffffff', background: '#2e7d32' },
];

beforeAll(async () => {
  ({ harness, send } = await startSignedInAdmin());
  await send('post', '/collections', {
    collection: 'produtos',
    meta: { display_template: '{{nome}}' },
    fields: [
      { field: 'nome', type: 'string' },
      { field: 'estado', type: 'string', meta: { interface: 'select-radio', options: { choices }, display: 'labels', display_options: { choices } } },
      { field: 'sabores', type: 'json', meta: { interface: 'select-multiple-checkbox', options: { choices: [{ text: 'Chocolate', value: 'chocolate' }, { text: 'Morango', value: 'morango' }] }, display: 'labels' } },
      {
        field: 'categorias',
        type: 'json',
        meta: { interface: 'select-multiple-checkbox-tree', options: { valueCombining: 'leaf', choices: [{ text: 'Frutas', value: 'frutas', children: [{ text: 'Maçã', value: 'maca' }, { text: 'Pera', value: 'pera' }] }, { text: 'Doces', value: 'doces' }] } },
      },
      { field: 'marcadores', type: 'json', meta: { interface: 'tags', options: { whitespace: '-', capitalization: 'lowercase', alphabetize: true } } },
      { field: 'cor', type: 'string', meta: { interface: 'select-color', options: { presets: [{ name: 'Vermelho', color: '#ff0000' }] }, display: 'color' } },
      { field: 'icone', type: 'string', meta: { interface: 'select-icon', display: 'icon' } },
      { field: 'ativo', type: 'boolean', meta: { interface: 'boolean', options: { label: 'À venda' }, display: 'boolean', display_options: { labelOn: 'Sim', labelOff: 'Não' } } },
      { field: 'nota', type: 'integer', meta: { display: 'rating' } },
      { field: 'preco', type: 'float', meta: { display: 'formatted-value', display_options: { prefix: 'R$ ', conditionalFormatting: [{ operator: 'gte', value: 100, color: 'rgb(255, 0, 0)' }] } } },
      { field: 'criado', type: 'timestamp' },
      { field: 'tipo', type: 'string', meta: { display: 'mime-type', display_options: { showAsExtension: true } } },
    ],
  });
  // A user picker: many-to-one to users, shown with the user display.
  await send('post', '/fields/produtos', { field: 'responsavel', type: 'uuid', meta: { interface: 'select-dropdown-m2o', special: ['m2o'], display: 'user' } });
  await send('post', '/relations', { collection: 'produtos', field: 'responsavel', related_collection: 'tessera_users', schema: { on_delete: 'SET NULL' } });
  await send('post', '/presets', { collection: 'produtos', layout: 'tabular', layout_query: { tabular: { fields: ['nome', 'estado', 'sabores', 'cor', 'icone', 'ativo', 'nota', 'preco', 'criado', 'tipo', 'responsavel'] } } });
});
afterAll(async () => {
  await harness?.close();
});

describe('selection interfaces and displays', () => {
  it('fills every selection interface in the item form and saves the values', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/content/produtos/+');
    await page.locator('#field-nome').fill('Bolo');
    await page.getByTestId('radio-estado').getByText('Publicado').click();
    await page.getByTestId('checkboxes-sabores').getByText('Morango').click();
    await page.getByTestId('checkbox-tree-categorias').getByText('Frutas').click();
    for (const tag of ['Rio Grande', 'abacaxi']) {
      await page.getByTestId('tags-marcadores').locator('input').fill(tag);
      await page.keyboard.press('Enter');
    }
    await page.getByTestId('color-cor').click();
    await page.locator('.ant-color-picker-presets-color').first().click();
    await page.keyboard.press('Escape');
    await page.getByTestId('icon-icone').click();
    await page.keyboard.type('star');
    await page.locator('.ant-select-item-option', { hasText: 'star' }).first().click();
    await page.getByTestId('field-responsavel').locator('.ant-select').click();
    const me = await send('get', '/users/me?fields=id,first_name,last_name');
    const option = page.locator('.ant-select-item-option', { hasText: `${me.first_name} ${me.last_name}` });
    // Each user with an avatar (the initial icon when they have no picture).
    await option.locator('.ant-avatar').waitFor();
    await option.click();
    await page.getByText('À venda').waitFor();
    await page.locator('#field-ativo').click();
    await harness.screenshot(page, 'interfaces-selection-form');
    const created = page.waitForResponse((response) => response.url().includes('/items/produtos') && response.request().method() === 'POST');
    await page.getByTestId('save-item').click();
    expect((await created).status()).toBe(200);
    const [bolo] = await send('get', '/items/produtos?fields=estado,sabores,categorias,marcadores,cor,icone,ativo,responsavel&filter[nome][_eq]=Bolo');
    // A checked branch stores its leaves (valueCombining: leaf); tags are shaped by their options.
    expect(bolo).toEqual({ estado: 'publicado', sabores: ['morango'], categorias: ['maca', 'pera'], marcadores: ['abacaxi', 'rio-grande'], cor: '#FF0000', icone: 'star', ativo: true, responsavel: me.id });
  });

  it('shows the values with their displays in the list', async () => {
    const me = await send('get', '/users/me?fields=id,first_name,last_name');
    await send('post', '/items/produtos', { responsavel: me.id, nome: 'Torta', estado: 'rascunho', sabores: ['chocolate'], cor: '#00AA00', icone: 'book', ativo: false, nota: 4, preco: 120.5, criado: new Date(Date.now() - 3 * 3600_000).toISOString(), tipo: 'image/jpeg' });
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/content/produtos');
    const row = page.getByRole('row', { name: /Torta/ });
    await row.getByText('Rascunho').waitFor();
    expect(await row.getByText('Rascunho').evaluate((element) => (globalThis as unknown as StyledWindow).getComputedStyle(element).backgroundColor)).toBe('rgb(136, 136, 136)');
    await row.getByText('Chocolate').waitFor();
    await row.getByText('#00AA00').waitFor();
    await row.getByTestId('icon-book').waitFor();
    await row.getByText('Não').waitFor();
    await row.getByLabel('4 / 5').waitFor();
    const price = row.getByTestId('display-formatted-value');
    expect(await price.textContent()).toBe('R$ 120.5');
    expect(await price.evaluate((element) => (globalThis as unknown as StyledWindow).getComputedStyle(element).color)).toBe('rgb(255, 0, 0)');
    await row.getByText('JPEG').or(row.getByText('JPG')).waitFor();
    await row.getByTestId('display-user').getByText(`${me.first_name} ${me.last_name}`).waitFor();
    await harness.screenshot(page, 'interfaces-displays-list');

    // A display chosen in the field drawer, with its options: the date as "3 hours ago".
    await page.goto('/admin/data-model/produtos');
    await page.getByTestId('field-edit-criado').click();
    await page.getByTestId('field-display').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('Date and time', { exact: true }).click();
    await page.getByTestId('display-option-relative').getByRole('switch').click();
    await page.getByTestId('field-save').click();
    await expect.poll(async () => (await send('get', '/fields/produtos/criado')).meta).toMatchObject({ display: 'datetime', display_options: { relative: true } });
    await page.goto('/admin/content/produtos');
    await page.getByRole('row', { name: /Torta/ }).getByText('3 hours ago').waitFor();
  });

  it('speaks Brazilian Portuguese in the list, the form and the drawer', async () => {
    await send('patch', '/users/me', { language: 'pt-BR' });
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/content/produtos');
    await page.getByRole('row', { name: /Torta/ }).getByText('há 3 horas').waitFor();
    await expectNoEnglish(page);
    await page.goto('/admin/content/produtos/+');
    await page.getByTestId('radio-estado').waitFor();
    await expectNoEnglish(page);
    await page.goto('/admin/data-model/produtos');
    await page.getByTestId('field-edit-criado').click();
    await page.getByText('Exibido nas listas como').waitFor();
    await expectNoEnglish(page);
    await harness.screenshot(page, 'interfaces-selection-pt-BR');
  });
});
