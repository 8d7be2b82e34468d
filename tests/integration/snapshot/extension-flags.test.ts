import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshot } from '../../../server/snapshot/load-snapshot.ts';
import { writeSnapshot } from '../../../server/snapshot/serialize.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Which extensions are enabled round-trips through snapshot, diff and apply (config/extensions.yaml). */
const FIXTURES = fileURLToPath(new URL('../extensions/fixtures', import.meta.url));

let folder: string;
let out: string;
let t: TestApp;
let auth: Record<string, string>;

type Row = { source: string; bundle: string | null; folder: string; enabled: boolean };
const snapshot = async () => (await t.request.get('/schema/snapshot').set(auth).expect(200)).body.data as Record<string, unknown> & { extensions: Row[] };
const status = async (name: string) => ((await t.request.get('/extensions').set(auth).expect(200)).body.data as Array<Record<string, any>>).find((entry) => entry.meta.folder === name);
const withFlag = (rows: Row[], name: string, enabled: boolean) => rows.map((row) => (row.folder === name ? { ...row, enabled } : row));

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'tessera-ext-snapshot-'));
  out = await mkdtemp(path.join(tmpdir(), 'tessera-ext-snapshot-out-'));
  for (const name of ['endpoint-greet', 'bundle-kit']) await symlink(path.join(FIXTURES, name), path.join(folder, name));
  t = await createTestApp({ EXTENSIONS_PATH: folder });
  auth = { Authorization: `Bearer ${await t.login()}` };
});

afterAll(async () => {
  await t?.close();
  for (const dir of [folder, out]) if (dir) await rm(dir, { recursive: true, force: true });
});

describe('extensions in snapshots', () => {
  it('a snapshot names every extension by source, bundle and folder, with its flag', async () => {
    expect((await snapshot()).extensions).toEqual([
      { source: 'local', bundle: 'bundle-kit', folder: 'kit-api', enabled: true },
      { source: 'local', bundle: 'bundle-kit', folder: 'kit-hook', enabled: true },
      { source: 'local', bundle: 'bundle-kit', folder: 'kit-input', enabled: true },
      { source: 'local', bundle: null, folder: 'bundle-kit', enabled: true },
      { source: 'local', bundle: null, folder: 'endpoint-greet', enabled: true },
    ]);
  });

  it('applying a snapshot that switches extensions off takes them away before the answer, and back on', async () => {
    const current = await snapshot();
    await t.request.get('/greet').expect(200);
    await t.request.get('/kit').expect(200);
    const desired = { ...current, extensions: withFlag(withFlag(current.extensions, 'endpoint-greet', false), 'kit-api', false) };
    const diff = (await t.request.post('/schema/diff').set(auth).send(desired).expect(200)).body.data;
    expect(diff.diff.steps).toEqual([
      expect.objectContaining({ kind: 'extensions', action: 'update', group: 'extensions', name: 'local bundle-kit/kit-api', changes: [{ path: 'enabled', from: true, to: false }] }),
      expect.objectContaining({ kind: 'extensions', action: 'update', group: 'extensions', name: 'local endpoint-greet', changes: [{ path: 'enabled', from: true, to: false }] }),
    ]);
    expect(diff.diff.warnings).toEqual([]);
    await t.request.post('/schema/apply').set(auth).send(diff).expect(204);
    // No wait: the apply answers once this instance has reloaded its extensions.
    await t.request.get('/greet').expect(404);
    await t.request.get('/kit').expect(404);
    expect(await status('endpoint-greet')).toMatchObject({ status: 'disabled', meta: { enabled: false } });
    expect(await status('kit-hook')).toMatchObject({ status: 'loaded', meta: { enabled: true } });
    await t.request.post('/schema/diff').set(auth).send(desired).expect(204);

    const back = (await t.request.post('/schema/diff').set(auth).send(current).expect(200)).body.data;
    await t.request.post('/schema/apply').set(auth).send(back).expect(204);
    await t.request.get('/greet').expect(200);
    await t.request.get('/kit').expect(200);
  });

  it('round-trips through snapshot files (config/extensions.yaml)', async () => {
    const current = await snapshot();
    writeSnapshot(out, { ...current, extensions: withFlag(current.extensions, 'kit-hook', false) } as never, 'yaml');
    const text = await readFile(path.join(out, 'config/extensions.yaml'), 'utf8');
    expect(text).toContain('folder: kit-hook');
    const loaded = loadSnapshot(out);
    expect(loaded.extensions).toContainEqual({ source: 'local', bundle: 'bundle-kit', folder: 'kit-hook', enabled: false });
    const diff = (await t.request.post('/schema/diff').set(auth).send(loaded).expect(200)).body.data;
    expect(diff.diff.steps).toEqual([expect.objectContaining({ kind: 'extensions', action: 'update', name: 'local bundle-kit/kit-hook' })]);
    await t.request.post('/schema/apply').set(auth).send(diff).expect(204);
    expect(await status('kit-hook')).toMatchObject({ status: 'disabled' });
    expect(await status('kit-api')).toMatchObject({ status: 'loaded' });
  });

  it('leaves extensions a snapshot does not list alone, and manages none when the section is absent', async () => {
    const current = await snapshot();
    const before = current.extensions;
    await t.request.post('/schema/diff').set(auth).send({ ...current, extensions: before.filter((row) => row.folder === 'endpoint-greet') }).expect(204);
    const { extensions: _dropped, ...unmanaged } = current;
    await t.request.post('/schema/diff').set(auth).send(unmanaged).expect(204);
    expect((await snapshot()).extensions).toEqual(before);
  });

  it('records the flag of an extension that is not installed, with a warning, and it holds once installed', async () => {
    const current = await snapshot();
    const desired = { ...current, extensions: [...current.extensions, { source: 'local', bundle: null, folder: 'late-greet', enabled: false }] };
    const diff = (await t.request.post('/schema/diff').set(auth).send(desired).expect(200)).body.data;
    expect(diff.diff.steps).toEqual([expect.objectContaining({ kind: 'extensions', action: 'create', name: 'local late-greet' })]);
    expect(diff.diff.warnings).toEqual(['extension local late-greet is not installed here: enabled: false is recorded and takes effect when it is installed.']);
    await t.request.post('/schema/apply').set(auth).send(diff).expect(204);

    await symlink(path.join(FIXTURES, 'hook-audit'), path.join(folder, 'late-greet'));
    await t.context.extensions.reload();
    expect(await status('late-greet')).toMatchObject({ status: 'disabled', meta: { enabled: false } });
    await t.request.post('/schema/diff').set(auth).send(desired).expect(204);
  });

  it('refuses a flag that is not true or false, naming the field', async () => {
    const current = await snapshot();
    const response = await t.request
      .post('/schema/diff')
      .set(auth)
      .send({ ...current, extensions: [{ source: 'local', bundle: null, folder: 'endpoint-greet', enabled: 'no' }] })
      .expect(400);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'extensions[0].enabled' });
  });
});
