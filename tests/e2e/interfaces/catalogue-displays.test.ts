import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { englishLeaks } from '../english-leaks.ts';
import type { AdminHarness } from '../harness.ts';
import { chooseOption, startSignedInAdmin, type Send } from './interface-kit.ts';

/**
 * The displays of the catalogue's second part (translations in the user's language first, collection
 * name), and the registry's interfaces and displays beyond the item form: the version compare view shows
 * values with their displays, the filter builder enters a date with the date interface; en-US and pt-BR.
 */
let harness: AdminHarness;
let send: Send;

beforeAll(async () => {
  ({ harness, send } = await startSignedInAdmin());
  await send('post', '/collections', {
    collection: 'idiomas',
    meta: { display_template: '{{nome}}' },
    fields: [
      { field: 'codigo', type: 'string', schema: { is_primary_key: true } },
      { field: 'nome', type: 'string' },
    ],
  });
  await send('post', '/items/idiomas', [{ codigo: 'en-US', nome: 'Inglês' }, { codigo: 'pt-BR', nome: 'Português' }]);
  await send('post', '/collections', {
    collection: 'receitas',
    meta: { versioning: true, display_template: '{{titulo}}', icon: 'star', translations: [{ language: 'pt-BR', translation: 'Receitas de família' }] },
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: { hidden: true } },
      { field: 'titulo', type: 'string' },
      { field: 'origem', type: 'string', meta: { display: 'collection', display_options: { icon: true } } },
      { field: 'estado', type: 'string', meta: { interface: 'select-dropdown', options: { choices: [{ text: 'Rascunho', value: 'rascunho' }, { text: 'Pronta', value: 'pronta' }] }, display: 'labels' } },
      { field: 'preparo', type: 'date' },
    ],
  });
  await send('post', '/collections', {
    collection: 'receitas_traducoes',
    meta: { hidden: true },
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: { hidden: true } },
      { field: 'receitas_id', type: 'integer', meta: { hidden: true } },
      { field: 'idiomas_codigo', type: 'string', meta: { hidden: true } },
      { field: 'nome', type: 'string' },
    ],
  });
  await send('post', '/fields/receitas', { field: 'traducoes', type: 'alias', meta: { special: ['translations'], interface: 'translations', display: 'translations', display_options: { defaultLanguage: 'en-US' } } });
  await send('post', '/relations', { collection: 'receitas_traducoes', field: 'idiomas_codigo', related_collection: 'idiomas', meta: { junction_field: 'receitas_id' } });
  await send('post', '/relations', { collection: 'receitas_traducoes', field: 'receitas_id', related_collection: 'receitas', meta: { one_field: 'traducoes', junction_field: 'idiomas_codigo', one_deselect_action: 'delete' } });
  const bolo = await send('post', '/items/receitas', {
    titulo: 'Bolo',
    origem: 'receitas',
    estado: 'rascunho',
    preparo: '2026-03-10',
    traducoes: [
      { idiomas_codigo: 'en-US', nome: 'Carrot cake' },
      { idiomas_codigo: 'pt-BR', nome: 'Bolo de cenoura' },
    ],
  });
  await send('post', '/items/receitas', { titulo: 'Pudim', origem: 'idiomas', estado: 'pronta', preparo: '2026-05-20', traducoes: [{ idiomas_codigo: 'pt-BR', nome: 'Pudim de leite' }] });
  const version = await send('post', '/versions', { key: 'revisao', name: 'Revisão', collection: 'receitas', item: String(bolo.id) });
  await send('post', `/versions/${version.id}/save`, { estado: 'pronta' });
  await send('post', '/presets', { collection: 'receitas', layout: 'tabular', layout_query: { tabular: { fields: ['titulo', 'traducoes', 'origem', 'estado', 'preparo'] } } });
});
afterAll(async () => {
  await harness?.close();
});

describe('catalogue displays', () => {
  it('shows translations in the user language first, else the default one, and collection names', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/content/receitas');
    const bolo = page.getByRole('row', { name: /Bolo/ });
    // en-US: the English translation; Pudim has only Portuguese, which is shown rather than nothing.
    await bolo.getByTestId('display-translations').getByText('Carrot cake').waitFor({ timeout: 60_000 });
    await page.getByRole('row', { name: /Pudim/ }).getByText('Pudim de leite').waitFor();
    await bolo.getByTestId('display-collection').getByText('Receitas').waitFor();
    await page.getByRole('row', { name: /Pudim/ }).getByTestId('display-collection').getByText('Idiomas').waitFor();
    await harness.screenshot(page, 'interfaces-catalogue-displays');
  });

  it('compares a version with the displays and filters a date with the date interface', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    const [bolo] = await send('get', '/items/receitas?fields=id&filter[titulo][_eq]=Bolo');
    await page.goto(`/admin/content/receitas/${bolo.id}`);
    await chooseOption(page, 'version-switcher', 'Revisão');
    await page.getByTestId('version-compare').click();
    // The labels display: the choice's text, not the stored value.
    await page.getByTestId('version-value-estado').getByText('Pronta').waitFor();
    await page.keyboard.press('Escape');

    await page.goto('/admin/content/receitas');
    await page.getByTestId('open-filter').click();
    await page.getByTestId('filter-add').click();
    await chooseOption(page, 'filter-field', 'Preparo');
    await chooseOption(page, 'filter-operator', 'greater than');
    const picker = page.getByTestId('filter-value-interface').locator('input');
    await picker.click();
    await picker.fill('2026-04-01');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('row', { name: /Bolo/ }).count()).toBe(0);
    await page.getByRole('row', { name: /Pudim/ }).waitFor();
    // The list keeps its filter: cleared for the next test.
    await page.getByText('Clear all').click();
    await page.getByRole('row', { name: /Bolo/ }).waitFor();
  });

  it('speaks Brazilian Portuguese: the Portuguese translation first, the collection by its translated name', async () => {
    await send('patch', '/users/me', { language: 'pt-BR' });
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/content/receitas');
    await page.getByRole('row', { name: /Bolo/ }).getByText('Bolo de cenoura').waitFor({ timeout: 60_000 });
    await page.getByRole('row', { name: /Bolo/ }).getByTestId('display-collection').getByText('Receitas de família').waitFor();
    expect(await englishLeaks(page)).toEqual([]);
    await page.goto('/admin/data-model/receitas');
    await page.getByTestId('field-edit-origem').click();
    await page.getByTestId('field-display').getByText('Nome da coleção').waitFor();
    expect(await englishLeaks(page)).toEqual([]);
    await harness.screenshot(page, 'interfaces-catalogue-displays-pt-BR');
  });
});
