import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_SNAPSHOT } from '../../helpers/directus-catalogue-snapshot.ts';
import { pngImage } from '../../helpers/images.ts';
import { englishLeaks } from '../english-leaks.ts';
import type { AdminHarness } from '../harness.ts';
import { startSignedInAdmin, type Send } from './interface-kit.ts';

/**
 * Issue 33: a Directus 11 snapshot naming the catalogue's second part (dropdown, checkboxes, tags, slider,
 * icon, autocomplete, key-value, image, files, tree view, divider, links, header) applies through
 * /schema/diff and /schema/apply, and an item of it opens with each field in its interface, in en-US and
 * pt-BR (tests/integration/snapshot/directus-catalogue-interfaces.test.ts checks what the apply stored).
 */
let harness: AdminHarness;
let send: Send;
let token: string;
let home: number;
let child: number;

beforeAll(async () => {
  ({ harness, send, token } = await startSignedInAdmin());
  const diff = await send('post', '/schema/diff', CATALOGUE_SNAPSHOT);
  await send('post', '/schema/apply', diff);
  const upload = await harness.app.request.post('/files').set('Authorization', `Bearer ${token}`).attach('file', await pngImage(60, 40), 'fachada.png');
  expect(upload.status).toBe(200);
  const image = upload.body.data.id as string;
  const created = await send('post', '/items/paginas?fields=id,filhas.id', {
    titulo: 'Início',
    estado: 'publicado',
    canais: ['site'],
    etiquetas: ['novo'],
    prioridade: 7,
    icone: 'article',
    cidade: 'Lisboa',
    atributos: { cor: 'azul' },
    capa: image,
    galeria: [{ directus_files_id: image }],
    filhas: [{ titulo: 'Sobre' }],
  });
  home = created.id;
  child = created.filhas[0].id;
});
afterAll(async () => {
  await harness?.close();
});

/** Opens the item and waits for every field of the snapshot to show its value in its interface. */
async function openHome(page: Page): Promise<void> {
  await page.goto(`/admin/content/paginas/${home}`);
  // The machine these run on may be loaded: the first screen after signing in gets time to come.
  await page.getByTestId('header-cabecalho').getByText('Página Início').waitFor({ timeout: 60_000 });
  await page.getByTestId('divider-divisor').getByText('Conteúdo').waitFor();
  await page.getByTestId('field-estado').locator('.ant-select-selection-item', { hasText: 'Publicado' }).waitFor();
  expect(await page.getByTestId('checkboxes-canais').getByRole('checkbox', { name: 'Site' }).isChecked()).toBe(true);
  expect(await page.getByTestId('checkboxes-canais').getByRole('checkbox', { name: 'Boletim' }).isChecked()).toBe(false);
  await page.getByTestId('tags-etiquetas').getByText('novo', { exact: true }).waitFor();
  expect(await page.getByTestId('slider-prioridade').locator('input').inputValue()).toBe('7');
  await page.getByTestId('icon-icone').getByText('article').waitFor();
  expect(await page.getByTestId('autocomplete-cidade').locator('input').inputValue()).toBe('Lisboa');
  expect(await page.getByTestId('key-value-atributos').locator('input').first().inputValue()).toBe('cor');
  await page.getByTestId('file-field-capa').getByTestId('file-chosen').getByText(/fachada/i).waitFor();
  // `crop: false`: the image field offers no editor.
  expect(await page.getByTestId('file-field-capa').getByTestId('file-edit-image').count()).toBe(0);
  await page.getByTestId('to-many-galeria').getByText(/fachada/i).waitFor();
  await page.getByTestId('tree-view-filhas').getByTestId(`tree-node-${child}`).getByText('Sobre').waitFor();
  expect(await page.getByTestId('links-links').getByRole('link', { name: 'Pré-visualizar' }).getAttribute('href')).toBe(`https://example.test/previa/${home}`);
  expect(await page.getByTestId('header-cabecalho').getByRole('link', { name: 'Abrir no site' }).getAttribute('href')).toBe('https://example.test/In%C3%ADcio');
}

describe('a Directus snapshot with the catalogue’s second part', () => {
  it('applies, and an item of it opens with each field in its interface', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await openHome(page);
    await harness.screenshot(page, 'interfaces-directus-catalogue-snapshot');
  });

  it('speaks Brazilian Portuguese', async () => {
    await send('patch', '/users/me', { language: 'pt-BR' });
    const page = await harness.newPage();
    await harness.signIn(page);
    await openHome(page);
    expect(await englishLeaks(page)).toEqual([]);
  });
});
