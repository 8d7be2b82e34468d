import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSecondInstance, type SecondInstance } from '../../helpers/second-instance.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Switching an extension off through one instance takes it away on the other too (Redis fan-out). */
const GREET = fileURLToPath(new URL('./fixtures/endpoint-greet', import.meta.url));

let folder: string;
let first: TestApp;
let second: SecondInstance;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'tessera-ext-instances-'));
  await symlink(GREET, path.join(folder, 'endpoint-greet'));
  first = await createTestApp({ EXTENSIONS_PATH: folder, REDIS_URL: 'redis://127.0.0.1:6379' });
  second = await startSecondInstance(first);
});

afterAll(async () => {
  await second?.close();
  await first?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

it('a toggle through one instance reaches the other', async () => {
  await second.request.get('/greet').expect(200);
  const admin = await first.login();
  const [greet] = (await first.request.get('/extensions').set({ Authorization: `Bearer ${admin}` }).expect(200)).body.data;
  await first.request.patch(`/extensions/${greet.id}`).set({ Authorization: `Bearer ${admin}` }).send({ meta: { enabled: false } }).expect(200);
  await first.request.get('/greet').expect(404);
  await expect.poll(async () => (await second.request.get('/greet')).status).toBe(404);
  await first.request.patch(`/extensions/${greet.id}`).set({ Authorization: `Bearer ${admin}` }).send({ meta: { enabled: true } }).expect(200);
  await expect.poll(async () => (await second.request.get('/greet')).status).toBe(200);
});
