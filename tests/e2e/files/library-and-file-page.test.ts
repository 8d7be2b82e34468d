import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pixelAt, pngImage } from '../../helpers/images.ts';
import { expectNoEnglish } from '../english-leaks.ts';
import { startAdmin, type AdminHarness } from '../harness.ts';
import { seedNewsroom } from '../seed.ts';

// The file library (folder tree, drag to move, grid and table, upload by drop with progress) and a file's
// page (metadata, focal point, replacing the content under the same id, where it is used), in en-US and
// pt-BR, on a desktop and at 390 px. Seeded names are Portuguese so englishLeaks only finds interface text.

type ImageElement = { complete: boolean; naturalWidth: number };

let harness: AdminHarness;
let send: Awaited<ReturnType<typeof seedNewsroom>>['send'];
let token: string;
let harbourId: string;
const folders: Record<string, string> = {};

async function upload(name: string, buffer: Buffer, title?: string): Promise<string> {
  const request = harness.app.request.post('/files').set('Authorization', `Bearer ${token}`);
  const response = await (title ? request.field('title', title) : request).attach('file', buffer, name);
  expect(response.status).toBe(200);
  return response.body.data.id;
}

const fileRow = (id: string) => send('get', `/files/${id}?fields=id,title,description,tags,location,folder,focal_point_x,focal_point_y,width,height,filename_download`);

beforeAll(async () => {
  harness = await startAdmin();
  ({ send, token } = await seedNewsroom(harness.app));
  await send('post', '/fields/articles', { field: 'cover', type: 'uuid', meta: { interface: 'file-image', special: ['m2o'], translations: [{ language: 'pt-BR', translation: 'Capa' }] } });
  await send('post', '/relations', { collection: 'articles', field: 'cover', related_collection: 'tessera_files' });
  await send('post', '/collections', {
    collection: 'articles_files',
    meta: { hidden: true },
    schema: {},
    fields: [{ field: 'articles_id', type: 'integer', meta: { hidden: true } }, { field: 'tessera_files_id', type: 'uuid', meta: { hidden: true } }],
  });
  await send('post', '/relations', { collection: 'articles_files', field: 'articles_id', related_collection: 'articles', meta: { one_field: 'gallery', junction_field: 'tessera_files_id' }, schema: { on_delete: 'CASCADE' } });
  await send('post', '/relations', { collection: 'articles_files', field: 'tessera_files_id', related_collection: 'tessera_files', meta: { junction_field: 'articles_id' }, schema: { on_delete: 'CASCADE' } });
  folders.Fotos = (await send('post', '/folders', { name: 'Fotos' })).id;
  folders.Viagens = (await send('post', '/folders', { name: 'Viagens', parent: folders.Fotos })).id;
  folders.Antigos = (await send('post', '/folders', { name: 'Antigos' })).id;
  harbourId = await upload('porto.png', await pngImage(640, 480, '#2f9e44'), 'Porto');
  await upload('recibo.txt', Buffer.from('Recibo de teste\n'));
  await send('post', '/items/articles', { title: 'Reportagem do porto', cover: harbourId });
  await send('post', '/items/articles', { title: 'Galeria de imagens', gallery: [{ tessera_files_id: harbourId }] });
});
afterAll(async () => {
  await harness?.close();
});

async function openLibrary(page: Page) {
  await page.goto('/admin/files');
  await page.getByTestId('folder-node-Viagens').waitFor();
  await page.getByTestId('file-card-recibo.txt').waitFor();
}

/** The tree's depth of a folder node (All files is 0). */
const depth = (page: Page, name: string) => page.locator('.ant-tree-treenode', { has: page.getByTestId(`folder-node-${name}`) }).locator('.ant-tree-indent-unit').count();

/** Drops files from "the desktop" onto the library, as a browser does: dragenter, dragover, drop with a DataTransfer. */
async function dropFiles(page: Page, files: Array<{ name: string; type: string; text: string }>, drop = true) {
  const zone = page.getByTestId('upload-drop-zone');
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const file of list) transfer.items.add(new File([file.text], file.name, { type: file.type }));
    return transfer;
  }, files);
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('dragover', { dataTransfer });
  if (drop) await zone.dispatchEvent('drop', { dataTransfer });
}

describe('the file library', () => {
  it('shows folders as a tree, moves a file dragged onto a folder, switches to a table, uploads dropped files with progress', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await openLibrary(page);
    await page.getByTestId('file-card-porto.png').waitFor();
    expect(await depth(page, 'Fotos')).toBe(1);
    expect(await depth(page, 'Viagens')).toBe(2);
    expect(await depth(page, 'Antigos')).toBe(1);

    // Drag the picture onto "Antigos": it moves there. A card is draggable once the library knows the user
    // may update files (a permission read after the cards show); a drag before that moves nothing.
    await page.locator('[data-testid="file-card-porto.png"][draggable="true"]').waitFor();
    // A drag is a string of synthetic mouse moves, and on a loaded machine Chromium can drop one before the
    // drop target takes it: dragging again is harmless (the move is idempotent), so a lost drag is retried.
    for (let tries = 1; ; tries++) {
      await page.getByTestId('file-card-porto.png').dragTo(page.getByTestId('folder-node-Antigos'));
      const moved = await expect.poll(async () => (await fileRow(harbourId)).folder, { timeout: 20_000 }).toBe(folders.Antigos).then(() => true, () => false);
      if (moved) break;
      if (tries === 3) throw new Error('porto.png never moved to Antigos after three drags');
    }
    await page.getByTestId('folder-node-Antigos').click();
    await page.getByTestId('file-card-porto.png').waitFor();
    await page.getByTestId('file-card-recibo.txt').waitFor({ state: 'detached' });

    // The table layout lists the same files, and is remembered.
    await page.getByTestId('folder-node-root').click();
    await page.getByTestId('files-layout-table').click();
    await page.getByTestId('file-row-porto.png').waitFor();
    await page.getByTestId('file-row-recibo.txt').filter({ hasText: 'text/plain' }).waitFor();
    await harness.screenshot(page, 'files-library-table');
    await page.reload();
    await page.getByTestId('file-row-porto.png').waitFor();
    await page.getByTestId('files-layout-grid').click();
    await page.getByTestId('file-card-porto.png').waitFor();

    // Drop a file from the desktop into "Viagens", on a slow uplink: the progress line moves before it completes.
    await page.getByTestId('folder-node-Viagens').click();
    await page.getByText('No files match').waitFor();
    await dropFiles(page, [{ name: 'diario.txt', type: 'text/plain', text: 'x' }], false);
    await page.getByText('Drop the files to upload them here').waitFor();
    await harness.screenshot(page, 'files-library-drop');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
    await dropFiles(page, [{ name: 'diario.txt', type: 'text/plain', text: 'Um dia de viagem.\n'.repeat(80_000) }]);
    const progress = page.getByTestId('upload-progress-diario.txt');
    await expect.poll(async () => Number(await progress.getAttribute('data-percent')), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(await progress.getAttribute('data-status')).toBe('active');
    expect(Number(await progress.getAttribute('data-percent'))).toBeLessThan(100);
    await harness.screenshot(page, 'files-library-uploading');
    await page.locator('[data-testid="upload-progress-diario.txt"][data-status="success"][data-percent="100"]').waitFor({ timeout: 60_000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.getByTestId('file-card-diario.txt').waitFor();
    const inTravel = await send('get', `/files?fields=filename_download,filesize&filter=${encodeURIComponent(JSON.stringify({ folder: { _eq: folders.Viagens } }))}`);
    expect(inTravel).toEqual([{ filename_download: 'diario.txt', filesize: String('Um dia de viagem.\n'.length * 80_000) }]);
    await harness.screenshot(page, 'files-library');
  }, 300_000);

  it('moves a folder dragged onto another; a move into its own subfolder is refused with a clear message, here and by the API', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await openLibrary(page);
    const parentOf = async (folder: string) => (await send('get', `/folders/${folder}?fields=parent`)).parent;
    await page.getByTestId('folder-node-Antigos').dragTo(page.getByTestId('folder-node-Viagens'));
    await expect.poll(() => parentOf(folders.Antigos!), { timeout: 60_000 }).toBe(folders.Viagens);
    await page.getByText('Moved Antigos to Viagens').waitFor();
    await expect.poll(() => depth(page, 'Antigos'), { timeout: 60_000 }).toBe(3);

    // "Fotos" into "Antigos", now inside it: refused before anything is sent.
    const folderWrites: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && new URL(request.url()).pathname.startsWith('/folders')) folderWrites.push(request.url());
    });
    await page.getByTestId('folder-node-Fotos').dragTo(page.getByTestId('folder-node-Antigos'));
    await page.getByText('“Fotos” can’t be moved into itself or one of its own subfolders.').waitFor();
    await harness.screenshot(page, 'files-folder-loop');
    expect(folderWrites).toEqual([]);
    expect(await parentOf(folders.Fotos!)).toBeNull();
    // The API refuses the loop too, naming `parent`.
    const refused = await harness.app.request.patch(`/folders/${folders.Fotos}`).set('Authorization', `Bearer ${token}`).send({ parent: folders.Antigos });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'parent' });

    // Onto "All files": back at the root.
    await page.getByTestId('folder-node-Antigos').dragTo(page.getByTestId('folder-node-root'));
    await expect.poll(() => parentOf(folders.Antigos!), { timeout: 60_000 }).toBeNull();
    await expect.poll(() => depth(page, 'Antigos'), { timeout: 60_000 }).toBe(1);
    await page.close();
  }, 300_000);
});

describe("a file's page", () => {
  it('edits the metadata and the focal point, replaces the content under the same id, lists where the file is used', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await openLibrary(page);
    await page.getByTestId('file-card-porto.png').waitFor();
    await page.getByTestId('file-card-porto.png').click();
    await page.waitForURL(`**/admin/files/${harbourId}`);
    await page.getByTestId('file-page-title').filter({ hasText: 'Porto' }).waitFor();

    // Where it is used: the cover of one article, the gallery of another.
    await page.getByTestId('file-usage-articles-cover').getByRole('link', { name: 'Reportagem do porto' }).waitFor();
    await page.getByTestId('file-usage-articles-gallery').getByRole('link', { name: 'Galeria de imagens' }).waitFor();

    // Metadata.
    await page.getByTestId('file-field-title').fill('Porto ao amanhecer');
    await page.locator('[data-testid="file-field-description"]').fill('Barcos no cais');
    const tags = page.getByTestId('file-field-tags').locator('input');
    await tags.fill('mar');
    await tags.press('Enter');
    await tags.fill('manhã');
    await tags.press('Enter');
    await page.locator('input[data-testid="file-field-location"]').fill('Lisboa');
    await page.getByTestId('file-field-folder').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('Fotos / Viagens', { exact: true }).click();

    // The focal point: a click on the picture, a quarter across and three quarters down.
    const image = page.getByTestId('file-preview-image');
    await expect.poll(() => image.evaluate((element) => (element as unknown as ImageElement).complete && (element as unknown as ImageElement).naturalWidth > 0), { timeout: 60_000 }).toBe(true);
    const box = (await image.boundingBox())!;
    await image.click({ position: { x: box.width * 0.25, y: box.height * 0.75 } });
    await page.getByTestId('focal-point-marker').waitFor();
    await harness.screenshot(page, 'file-page');
    const saved = page.waitForResponse((response) => response.url().includes(`/files/${harbourId}`) && response.request().method() === 'PATCH');
    await page.getByTestId('file-save').click();
    expect((await saved).status()).toBe(200);
    const row = await fileRow(harbourId);
    expect(row).toMatchObject({ title: 'Porto ao amanhecer', description: 'Barcos no cais', tags: ['mar', 'manhã'], location: 'Lisboa', folder: folders.Viagens });
    expect(Math.abs(row.focal_point_x - 160)).toBeLessThanOrEqual(3);
    expect(Math.abs(row.focal_point_y - 360)).toBeLessThanOrEqual(3);
    await page.reload();
    await page.getByTestId('focal-point-value').filter({ hasText: `${row.focal_point_x}, ${row.focal_point_y}` }).waitFor();

    // A cropped copy of the old content is cached; then the content is replaced through the page.
    const before = await harness.app.request.get(`/assets/${harbourId}?width=40&height=40&format=png`).set('Authorization', `Bearer ${token}`).buffer(true).expect(200);
    expect(await pixelAt(before.body, 20, 20)).toEqual([0x2f, 0x9e, 0x44]);
    const replacement = await pngImage(300, 200, '#1c7ed6');
    const replaced = page.waitForResponse((response) => response.url().includes(`/files/${harbourId}`) && response.request().method() === 'PATCH');
    await page.locator('input[type=file]').setInputFiles({ name: 'porto-novo.png', mimeType: 'image/png', buffer: replacement });
    const answer = await replaced;
    expect(answer.status()).toBe(200);
    expect(answer.request().headers()['content-type']).toMatch(/^multipart\/form-data/);
    await page.getByTestId('file-facts').getByText('300×200').waitFor();
    // Same id, metadata kept, the new bytes at the same asset URL, and no stale cropped copy.
    expect(await fileRow(harbourId)).toMatchObject({ id: harbourId, title: 'Porto ao amanhecer', location: 'Lisboa', width: 300, height: 200 });
    const served = await harness.app.request.get(`/assets/${harbourId}`).set('Authorization', `Bearer ${token}`).buffer(true).expect(200);
    expect(Buffer.compare(served.body, replacement)).toBe(0);
    const after = await harness.app.request.get(`/assets/${harbourId}?width=40&height=40&format=png`).set('Authorization', `Bearer ${token}`).buffer(true).expect(200);
    expect(await pixelAt(after.body, 20, 20)).toEqual([0x1c, 0x7e, 0xd6]);
    await expect.poll(() => image.evaluate((element) => (element as unknown as ImageElement).naturalWidth), { timeout: 60_000 }).toBe(300);
    // The image editor opens on the stored picture, from the page.
    await page.getByTestId('file-open-editor').click();
    await page.getByTestId('image-size').filter({ hasText: '300×200' }).waitFor();
    await page.locator('.ant-modal-close').click();
    await page.getByTestId('image-size').waitFor({ state: 'detached' });
    // Download asks for the attachment.
    expect(await page.getByTestId('file-download').getAttribute('href')).toBe(`/assets/${harbourId}?download=true`);
    await harness.screenshot(page, 'file-page-replaced');
  }, 300_000);
});

describe('in pt-BR and at 390 px', () => {
  it('the library and the file page speak Portuguese and fit a phone', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    for (const language of ['en-US', 'pt-BR'] as const) {
      await send('patch', '/users/me', { language });
      for (const width of [1360, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 860 });
        await openLibrary(page);
        if (language === 'pt-BR') await expectNoEnglish(page);
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
        await harness.screenshot(page, `files-library-${language}-${width}`);
        if (language === 'pt-BR' && width === 390) {
          // A folder dragged into its own subfolder: the refusal in Portuguese.
          await page.getByTestId('folder-node-Fotos').dragTo(page.getByTestId('folder-node-Viagens'));
          await page.getByText('Não é possível mover “Fotos” para dentro de si mesma ou de uma das suas subpastas.').waitFor();
          await harness.screenshot(page, 'files-folder-loop-pt-BR-390');
        }
        await page.goto(`/admin/files/${harbourId}`);
        await page.getByTestId('file-usage-articles-cover').waitFor();
        if (language === 'pt-BR') await expectNoEnglish(page);
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
        await harness.screenshot(page, `file-page-${language}-${width}`);
      }
    }
    await send('patch', '/users/me', { language: null });
  }, 300_000);
});
