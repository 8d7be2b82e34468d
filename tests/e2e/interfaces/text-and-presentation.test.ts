import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoEnglish } from '../english-leaks.ts';
import type { AdminHarness } from '../harness.ts';
import { startSignedInAdmin, type Send } from './interface-kit.ts';

/**
 * Slider, code (JSON linted, stored parsed), hash ("value set") and the presentation fields (divider,
 * notice and links with the item's values in them; the notice created and set up in the data model).
 */
let harness: AdminHarness;
let send: Send;

beforeAll(async () => {
  ({ harness, send } = await startSignedInAdmin());
  await send('post', '/collections', {
    collection: 'artigos',
    meta: { display_template: '{{titulo}}' },
    fields: [
      { field: 'titulo', type: 'string' },
      { field: 'endereco', type: 'string', meta: { interface: 'input', options: { slug: true, font: 'monospace' } } },
      { field: 'divisor', type: 'alias', meta: { special: ['alias', 'no-data'], interface: 'presentation-divider', options: { title: 'Detalhes' } } },
      { field: 'nota', type: 'integer', meta: { interface: 'slider', options: { minValue: 0, maxValue: 10, stepInterval: 1 } } },
      { field: 'codigo', type: 'json', meta: { interface: 'input-code', options: { language: 'json' } } },
      { field: 'segredo', type: 'hash', meta: { interface: 'input-hash' } },
      { field: 'links', type: 'alias', meta: { special: ['alias', 'no-data'], interface: 'presentation-links', options: { links: [{ label: 'Ver no site', url: 'https://example.test/busca?q={{titulo}}', type: 'primary' }, { label: 'Ruim', url: 'javascript:alert(1)' }] } } },
    ],
  });
});
afterAll(async () => {
  await harness?.close();
});

describe('text and presentation interfaces', () => {
  it('creates a notice in the data model, then fills slider, code and hash with the presentation fields around them', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/data-model/artigos');
    await page.getByTestId('group-create').click();
    await page.getByTestId('group-name').fill('aviso');
    await page.getByTestId('group-interface').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('Notice', { exact: true }).click();
    await page.getByTestId('group-save').click();
    await page.getByTestId('field-row-aviso').waitFor();
    await page.getByTestId('field-edit-aviso').click();
    await page.getByTestId('option-color').locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('Warning', { exact: true }).click();
    await page.getByTestId('option-text').locator('input').fill('Revise {{titulo}} antes de publicar');
    await page.getByTestId('field-save').click();
    await expect.poll(async () => (await send('get', '/fields/artigos/aviso')).meta).toMatchObject({ special: ['alias', 'no-data'], interface: 'presentation-notice', options: { color: 'warning', text: 'Revise {{titulo}} antes de publicar' } });

    await page.goto('/admin/content/artigos/+');
    await page.getByTestId('divider-divisor').getByText('Detalhes').waitFor();
    await page.locator('#field-titulo').fill('Bolo & Cia');
    await page.getByTestId('notice-aviso').getByText('Revise Bolo & Cia antes de publicar').waitFor();
    const links = page.getByTestId('links-links');
    expect(await links.getByRole('link', { name: 'Ver no site' }).getAttribute('href')).toBe('https://example.test/busca?q=Bolo%20%26%20Cia');
    // A script address is never a link.
    expect(await links.getByRole('link', { name: 'Ruim' }).count()).toBe(0);
    // A slug input keeps the address URL-safe as it is typed, and drops the dash left at the end.
    await page.locator('#field-endereco').pressSequentially('Olá, Mundo!');
    expect(await page.locator('#field-endereco').inputValue()).toBe('ola-mundo-');
    await page.locator('#field-nota').fill('7');
    expect(await page.locator('#field-endereco').inputValue()).toBe('ola-mundo');
    const code = page.locator('#field-codigo');
    await code.fill('{ "porcoes": ');
    await page.getByTestId('code-codigo').getByText(/Not JSON/).waitFor();
    await code.fill('{ "porcoes": 8 }');
    await page.getByTestId('code-codigo').getByText(/Not JSON/).waitFor({ state: 'detached' });
    await page.locator('#field-segredo').fill('s3gredo');
    await harness.screenshot(page, 'interfaces-text-form');
    const created = page.waitForResponse((response) => response.url().includes('/items/artigos') && response.request().method() === 'POST');
    await page.getByTestId('save-item').click();
    expect((await created).status()).toBe(200);
    const [artigo] = await send('get', `/items/artigos?fields=id,endereco,nota,codigo,segredo&filter[titulo][_eq]=${encodeURIComponent('Bolo & Cia')}`);
    expect(artigo).toMatchObject({ endereco: 'ola-mundo', nota: 7, codigo: { porcoes: 8 }, segredo: '**********' });

    // A stored hash says so, and is only replaced on purpose.
    await page.goto(`/admin/content/artigos/${artigo.id}`);
    const hash = page.getByTestId('hash-segredo');
    await hash.getByText('Value set').waitFor();
    expect(await page.getByTestId('slider-nota').locator('input').inputValue()).toBe('7');
  });

  it('speaks Brazilian Portuguese', async () => {
    await send('patch', '/users/me', { language: 'pt-BR' });
    const page = await harness.newPage();
    await harness.signIn(page);
    const [artigo] = await send('get', '/items/artigos?fields=id');
    await page.goto(`/admin/content/artigos/${artigo.id}`);
    await page.getByTestId('hash-segredo').getByText('Valor definido').waitFor();
    await page.locator('#field-codigo').fill('{ x');
    await page.getByTestId('code-codigo').getByText(/Não é JSON/).waitFor();
    await expectNoEnglish(page);
    await harness.screenshot(page, 'interfaces-text-pt-BR');
  });
});
