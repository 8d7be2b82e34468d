import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createFlow } from './flow-fixture.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});

afterAll(async () => {
  await t?.close();
});

const script = async (code: string) => (await createFlow(t, token, { name: 'exec', trigger: 'webhook', options: { method: 'POST' } }, [{ key: 'run', type: 'exec', options: { code } }])).id;

it('exec runs module.exports = async function(data) in the sandbox and returns its result', async () => {
  const id = await script('module.exports = async function (data) { return { doubled: data.$trigger.body.n * 2, node: typeof process + typeof require }; };');
  expect((await t.request.post(`/flows/trigger/${id}`).send({ n: 21 }).expect(200)).body.data).toEqual({ doubled: 42, node: 'undefinedundefined' });
});

it('a script that loops forever is interrupted after the time limit', async () => {
  const id = await script('module.exports = async function () { for (;;) {} };');
  const started = Date.now();
  const response = await t.request.post(`/flows/trigger/${id}`).send({}).expect(400);
  expect(Date.now() - started).toBeLessThan(5000);
  expect(response.body.errors[0].message).toMatch(/Script failed: .*interrupted/i);
});

it('a script that allocates past the memory limit is stopped', async () => {
  // One 32 MB buffer passes the 16 MB limit at once: a growing loop could hit the 1 s time limit first on a loaded machine.
  const id = await script("module.exports = async function () { const buffer = new Uint8Array(32 * 1024 * 1024); return buffer.length; };");
  const response = await t.request.post(`/flows/trigger/${id}`).send({}).expect(400);
  expect(response.body.errors[0].message).toMatch(/Script failed: .*memory/i);
});
