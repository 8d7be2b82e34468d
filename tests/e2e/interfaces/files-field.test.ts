import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_SNAPSHOT } from '../../helpers/directus-catalogue-snapshot.ts';
import { pngImage } from '../../helpers/images.ts';
import { englishLeaks } from '../english-leaks.ts';
import type { AdminHarness } from '../harness.ts';
import { startSignedInAdmin, type Send } from './interface-kit.ts';

/**
 * Issue 33: the files interface (`files`, an m2m to the file library) with Directus's options, set in the
 * field drawer: `folder` (the library opens on it, uploads go into it) and `limit` (files per page; in
 * Directus it is the page size, not a cap); in en-US and pt-BR.
 */
let harness: AdminHarness;
let send: Send;
let token: string;
let photos: string;
let page_: number;

async function upload(name: string, folder?: string): Promise<string> {
  const request = harness.app.request.post('/files').set('Authorization', `Bearer ${token}`);
  if (folder) request.field('folder', folder);
  const answer = await request.attach('file', await pngImage(40, 30), name);
  expect(answer.status).toBe(200);
  return answer.body.data.id;
}

beforeAll(async () => {
  ({ harness, send, token } = await startSignedInAdmin());
  await send('post', '/schema/apply', await send('post', '/schema/diff', CATALOGUE_SNAPSHOT));
  photos = (await send('post', '/folders', { name: 'Fotos' })).id;
  await upload('raiz.png');
  const inside = [await upload('praia.png', photos), await upload('serra.png', photos), await upload('rio.png', photos)];
  page_ = (await send('post', '/items/paginas', { titulo: 'Galeria', galeria: inside.map((id) => ({ directus_files_id: id })) })).id;
});
afterAll(async () => {
  await harness?.close();
});

/** The rows the files list shows on its current page. */
const rowsShown = (page: Page) => page.getByTestId('to-many-galeria').locator('.ant-list-item');

describe('the files interface', () => {
  it('takes a folder and a page size in the field drawer; the library opens on the folder and uploads into it', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/data-model/paginas');
    await page.getByTestId('field-edit-galeria').click({ timeout: 60_000 });
    const options = page.getByTestId('interface-options');
    await options.getByTestId('option-folder').locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('Fotos', { exact: true }).click();
    await options.getByTestId('option-limit').locator('input').fill('2');
    await page.getByTestId('field-save').click();
    await expect.poll(async () => (await send('get', '/fields/paginas/galeria')).meta.options).toEqual({ folder: photos, limit: 2 });

    await page.goto(`/admin/content/paginas/${page_}`);
    await expect.poll(() => rowsShown(page).count(), { timeout: 60_000 }).toBe(2);
    await page.getByTestId('to-many-galeria').locator('.ant-pagination-item-2').click();
    await expect.poll(() => rowsShown(page).count()).toBe(1);

    await page.getByTestId('browse-files-galeria').click();
    const library = page.locator('.ant-modal').getByTestId('file-browser');
    await library.getByTestId('file-folder').getByText('Fotos').waitFor();
    await library.getByText(/praia/i).waitFor();
    expect(await library.getByText(/raiz/i).count()).toBe(0);
    await harness.screenshot(page, 'interfaces-files-folder');
    await library.locator('input[type=file]').setInputFiles({ name: 'nova.png', mimeType: 'image/png', buffer: await pngImage(40, 30, '#e35169') });
    await library.waitFor({ state: 'detached' });
    // Four files now, two a page: the new one is last, on page two.
    await page.getByTestId('to-many-galeria').getByText(/nova/i).waitFor();
    expect(await rowsShown(page).count()).toBe(2);

    const saved = page.waitForResponse((response) => response.url().includes(`/items/paginas/${page_}`) && response.request().method() === 'PATCH');
    await page.getByTestId('save-item').click();
    expect((await saved).status()).toBe(200);
    const stored = await send('get', `/items/paginas/${page_}?fields=galeria.directus_files_id.filename_download,galeria.directus_files_id.folder`);
    expect(stored.galeria).toHaveLength(4);
    expect(stored.galeria.at(-1).directus_files_id).toEqual({ filename_download: 'nova.png', folder: photos });
  });

  it('speaks Brazilian Portuguese', async () => {
    await send('patch', '/users/me', { language: 'pt-BR' });
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/data-model/paginas');
    await page.getByTestId('field-edit-galeria').click({ timeout: 60_000 });
    await page.getByTestId('interface-options').getByText('Pasta dos envios').waitFor();
    await page.getByTestId('interface-options').getByText('Arquivos por página').waitFor();
    expect(await englishLeaks(page)).toEqual([]);
    await page.goto(`/admin/content/paginas/${page_}`);
    await expect.poll(() => rowsShown(page).count(), { timeout: 60_000 }).toBe(2);
    expect(await englishLeaks(page)).toEqual([]);
  });
});
