import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngImage } from '../helpers/images.ts';
import { startAdmin, type AdminHarness } from './harness.ts';
import { seedNewsroom } from './seed.ts';

/** The browser APIs this file reads (the test project's types have no DOM). */
type ImageElement = { complete: boolean; naturalWidth: number; currentSrc: string };

let harness: AdminHarness;
let send: Awaited<ReturnType<typeof seedNewsroom>>['send'];
let token: string;
let existingId: string;

beforeAll(async () => {
  harness = await startAdmin();
  ({ send, token } = await seedNewsroom(harness.app));
  await send('post', '/fields/articles', { field: 'cover', type: 'uuid', meta: { interface: 'file-image', special: ['m2o'], width: 'half', note: 'Shown on the front page' } });
  await send('post', '/relations', { collection: 'articles', field: 'cover', related_collection: 'tessera_files' });
  const upload = await harness.app.request.post('/files').set('Authorization', `Bearer ${token}`).field('title', 'Existing photo').attach('file', await pngImage(640, 480, '#2f9e44'), 'existing.png');
  expect(upload.status).toBe(200);
  existingId = upload.body.data.id;
  // Uploads land in the harness's temporary DATA_DIR, not in the repository.
  expect(existsSync(path.join(harness.dataDir, 'uploads', upload.body.data.filename_disk))).toBe(true);
  // A gallery: many-to-many from articles to files.
  await send('post', '/collections', {
    collection: 'articles_files',
    meta: { hidden: true },
    schema: {},
    fields: [
      { field: 'articles_id', type: 'integer', meta: { hidden: true } },
      { field: 'tessera_files_id', type: 'uuid', meta: { hidden: true } },
    ],
  });
  await send('post', '/relations', { collection: 'articles_files', field: 'articles_id', related_collection: 'articles', meta: { one_field: 'gallery', junction_field: 'tessera_files_id' }, schema: { on_delete: 'CASCADE' } });
  await send('post', '/relations', { collection: 'articles_files', field: 'tessera_files_id', related_collection: 'tessera_files', meta: { junction_field: 'articles_id' }, schema: { on_delete: 'CASCADE' } });
});
afterAll(async () => {
  await harness?.close();
});

/** Waits until an image has loaded with real pixels, and returns the URL it loaded. */
async function loadedImage(image: Locator): Promise<string> {
  await image.waitFor();
  await expect.poll(() => image.evaluate((element) => (element as unknown as ImageElement).complete && (element as unknown as ImageElement).naturalWidth > 0)).toBe(true);
  return image.evaluate((element) => (element as unknown as ImageElement).currentSrc);
}

async function coverOf(title: string): Promise<string | null> {
  const [article] = await send('get', `/items/articles?fields=cover&filter=${encodeURIComponent(JSON.stringify({ title: { _eq: title } }))}`);
  return article.cover;
}

/**
 * Saves the item and waits for the form's read after the save: until it lands, the form may still be reset to
 * what was saved, taking back an edit made meanwhile (a clear clicked right after a save came back in a
 * whole run under load).
 */
async function save(page: Page) {
  const saved = page.waitForResponse((response) => response.url().includes('/items/articles') && ['POST', 'PATCH'].includes(response.request().method()));
  const reread = page.waitForResponse((response) => response.request().method() === 'GET' && /^\/items\/articles\/[^/]+$/.test(new URL(response.url()).pathname));
  await page.getByTestId('save-item').click();
  expect((await saved).status()).toBe(200);
  await reread;
}

describe('files', () => {
  it('uploads an image from the item form, shows its thumbnail, picks an existing file, clears it', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/content/articles/+');
    await page.locator('#field-title').fill('Harbour');
    const field = page.getByTestId('file-field-cover');
    await field.getByTestId('file-choose').click();
    const library = page.locator('.ant-modal').getByTestId('file-browser');
    await library.getByTestId('file-card-existing.png').waitFor();
    await harness.screenshot(page, 'files-picker');

    // Upload a new image through the library (multipart POST /files): it is picked at once.
    const uploaded = page.waitForResponse((response) => new URL(response.url()).pathname === '/files' && response.request().method() === 'POST');
    await library.locator('input[type=file]').setInputFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: await pngImage(800, 600, '#1c7ed6') });
    const upload = await uploaded;
    expect(upload.status()).toBe(200);
    expect(upload.request().headers()['content-type']).toMatch(/^multipart\/form-data/);
    const harbourId = ((await upload.json()) as { data: { id: string } }).data.id;
    await library.waitFor({ state: 'detached' });

    // The thumbnail is a server-side resize of the upload.
    const thumbnail = field.getByTestId('file-thumbnail');
    const source = new URL(await loadedImage(thumbnail));
    expect(source.pathname).toBe(`/assets/${harbourId}`);
    expect(source.searchParams.get('width')).toBe('240');
    expect(source.searchParams.get('fit')).toBe('cover');
    // It names the file's version, so the browser may keep it (docs/files.md, "Caching").
    expect(Date.parse(source.searchParams.get('modified') ?? '')).not.toBeNaN();
    await field.getByText('800×600').waitFor();
    await harness.screenshot(page, 'files-item-form');
    await save(page);
    await page.getByTestId('item-title').filter({ hasText: 'Harbour' }).waitFor();
    expect(await coverOf('Harbour')).toBe(harbourId);

    // Reopen the item: the stored file shows; replace it with the existing one from the library.
    await page.reload();
    await loadedImage(field.getByTestId('file-thumbnail'));
    await field.getByTestId('file-choose').click();
    await page.locator('.ant-modal').getByTestId('file-card-existing.png').click();
    await field.getByText('640×480').waitFor();
    await save(page);
    await expect.poll(() => coverOf('Harbour')).toBe(existingId);

    // Clear it.
    await field.getByTestId('file-clear').click();
    await field.getByTestId('file-thumbnail').waitFor({ state: 'detached' });
    await save(page);
    await expect.poll(() => coverOf('Harbour')).toBeNull();
  });

  it('a gallery (many-to-many to files): thumbnails in the list, files added from the library', async () => {
    const article = await send('post', '/items/articles', { title: 'Gallery piece' });
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto(`/admin/content/articles/${article.id}`);
    const gallery = page.getByTestId('to-many-gallery');
    await gallery.getByTestId('browse-files-gallery').click();
    await page.locator('.ant-modal').getByTestId('file-card-existing.png').click();
    await loadedImage(gallery.getByTestId('file-thumbnail').first());
    await gallery.getByTestId('browse-files-gallery').click();
    await page.locator('.ant-modal').getByTestId('file-card-harbour.png').click();
    await expect.poll(() => gallery.getByTestId('file-thumbnail').count()).toBe(2);
    await harness.screenshot(page, 'files-gallery');
    await save(page);
    const stored = await send('get', `/items/articles/${article.id}?fields=gallery.tessera_files_id.filename_download`);
    expect(stored.gallery.map((row: { tessera_files_id: { filename_download: string } }) => row.tessera_files_id.filename_download).sort()).toEqual(['existing.png', 'harbour.png']);
  });

  it('the file library: thumbnails, a new folder, uploads into it, the folder tree, delete', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.getByTestId('nav-module-files').click();
    await page.getByTestId('files-title').waitFor();
    const existing = page.getByTestId('file-card-existing.png');
    await loadedImage(existing.getByTestId('file-thumbnail'));
    await page.getByTestId('file-card-harbour.png').waitFor();

    await page.getByTestId('new-folder').click();
    await page.getByTestId('folder-name').fill('Photos');
    await page.getByRole('button', { name: 'Create' }).click();
    // The library shows the new folder, selected in the folder tree.
    await page.locator('.ant-tree-treenode-selected').getByTestId('folder-node-Photos').waitFor();
    // The new folder is empty.
    await page.getByText('No files match').waitFor();

    await page.getByTestId('file-upload').locator('..').locator('input[type=file]').setInputFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Meeting notes\n') },
      { name: 'sunset.png', mimeType: 'image/png', buffer: await pngImage(300, 200, '#f76707') },
    ]);
    await page.getByTestId('file-card-sunset.png').waitFor();
    await page.getByTestId('file-card-notes.txt').getByTestId('file-icon').waitFor();
    await expect(existing.count()).resolves.toBe(0);
    await harness.screenshot(page, 'files-library');
    const [photos] = await send('get', '/folders?fields=id,name');
    const inFolder = await send('get', `/files?fields=filename_download&sort=filename_download&filter=${encodeURIComponent(JSON.stringify({ folder: { _eq: photos.id } }))}`);
    expect(inFolder.map((file: { filename_download: string }) => file.filename_download)).toEqual(['notes.txt', 'sunset.png']);

    // All files again, then delete the text file.
    await page.getByTestId('folder-node-root').click();
    await existing.waitFor();
    await page.getByTestId('file-card-notes.txt').getByTestId('file-delete').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await page.getByTestId('file-card-notes.txt').waitFor({ state: 'detached' });
    const names = (await send('get', '/files?fields=filename_download')).map((file: { filename_download: string }) => file.filename_download).sort();
    expect(names).toEqual(['existing.png', 'harbour.png', 'sunset.png']);

    // The same screen in the dark appearance.
    await send('patch', '/users/me', { appearance: 'dark' });
    await page.reload();
    await page.getByTestId('file-card-sunset.png').waitFor();
    await harness.screenshot(page, 'files-library-dark');
    await send('patch', '/users/me', { appearance: null });
  });
});
