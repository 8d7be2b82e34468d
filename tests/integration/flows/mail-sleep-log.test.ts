import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createFlow } from './flow-fixture.ts';

let t: TestApp;
let token: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-flow-mail-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  token = await t.login();
});

afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('mail sends the markdown body through the mailer; sleep waits; log resolves', async () => {
  const { id } = await createFlow(t, token, { name: 'mailer', trigger: 'webhook', options: { method: 'POST' } }, [
    { key: 'pause', type: 'sleep', options: { milliseconds: 300 }, resolve: 'say' },
    { key: 'say', type: 'log', options: { message: 'sending to {{ $trigger.body.to }}' }, resolve: 'send' },
    { key: 'send', type: 'mail', options: { to: ['{{ $trigger.body.to }}'], subject: 'Hello {{ $trigger.body.name }}', body: '**Welcome** {{ $trigger.body.name }}' } },
  ]);
  const started = Date.now();
  await t.request.post(`/flows/trigger/${id}`).send({ to: 'reader@example.com', name: 'Ada' }).expect(204);
  expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  const files = await readdir(path.join(dataDir, 'outbox'));
  expect(files).toHaveLength(1);
  const eml = await readFile(path.join(dataDir, 'outbox', files[0]!), 'utf8');
  expect(eml).toContain('To: reader@example.com\r\n');
  expect(eml).toContain('Subject: Hello Ada\r\n');
  expect(eml).toContain('<strong>Welcome</strong> Ada');
});

it('mail with type wysiwyg sends the body as the HTML it is, not through markdown', async () => {
  const before = new Set(await readdir(path.join(dataDir, 'outbox')));
  const { id } = await createFlow(t, token, { name: 'html mailer', trigger: 'webhook', options: { method: 'POST' } }, [
    { key: 'send', type: 'mail', options: { to: ['html@example.com'], subject: 'HTML', type: 'wysiwyg', body: '<p>Hi <em>{{ $trigger.body.name }}</em>, **not bold**</p>' } },
  ]);
  await t.request.post(`/flows/trigger/${id}`).send({ name: 'Grace' }).expect(204);
  const added = (await readdir(path.join(dataDir, 'outbox'))).filter((file) => !before.has(file));
  expect(added).toHaveLength(1);
  const eml = await readFile(path.join(dataDir, 'outbox', added[0]!), 'utf8');
  expect(eml).toContain('To: html@example.com\r\n');
  expect(eml).toContain('<p>Hi <em>Grace</em>, **not bold**</p>');
  expect(eml).not.toContain('<strong>');
});
