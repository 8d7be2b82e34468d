import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ActionPayload } from '../../../server/events/event-names.ts';
import { pngImage } from '../../helpers/images.ts';
import { bearer, createFilesTestApp, type FilesTestApp } from '../files/files-fixture.ts';

let t: FilesTestApp;

beforeAll(async () => {
  t = await createFilesTestApp();
});

afterAll(async () => {
  await t?.close();
});

it('announces each uploaded file as files.upload, after its row is committed', async () => {
  const seen: ActionPayload[] = [];
  const off = t.context.events.onAction('files.upload', (meta) => void seen.push(meta));
  try {
    const admin = await t.login();
    const id = (await t.request.post('/files').set(bearer(admin)).field('title', 'Logo').attach('file', await pngImage(20, 10), 'logo.png').expect(200)).body.data.id;
    await t.context.events.idle();
    expect(seen).toEqual([expect.objectContaining({ event: 'files.upload', collection: 'tessera_files', keys: [id], payload: expect.objectContaining({ title: 'Logo', filename_download: 'logo.png' }) })]);
  } finally {
    off();
  }
});
