import { afterAll, beforeAll, expect, it } from 'vitest';
import { runningScripts } from '../../../server/flows/operations/exec.ts';
import { eventually } from '../../helpers/eventually.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createFlow } from './flow-fixture.ts';

const TIME_LIMIT_MS = 2000;
// Starting the worker thread and loading QuickJS come before the time limit starts; on a busy machine they take a while.
const START_MARGIN_MS = 5000;

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ FLOWS_EXEC_TIMEOUT: `${TIME_LIMIT_MS}ms`, FLOWS_EXEC_MAX_MEMORY: '64mb' });
  token = await t.login();
});

afterAll(async () => {
  await t?.close();
});

const script = async (code: string) => (await createFlow(t, token, { name: 'exec', trigger: 'webhook', options: { method: 'POST' } }, [{ key: 'run', type: 'exec', options: { code } }])).id;

/** Starts the flow, waits until its script runs, and shows /server/ping answering before the flow does. */
async function runWhilePinging(id: string) {
  const started = Date.now();
  let answered = false;
  const run = t.request
    .post(`/flows/trigger/${id}`)
    .send({})
    .then((response) => {
      answered = true;
      return response;
    });
  await eventually(async () => expect(runningScripts()).toBe(1), 10_000, 5);
  await t.request.get('/server/ping').expect(200);
  expect(answered).toBe(false);
  const response = await run;
  return { response, elapsed: Date.now() - started };
}

it('exec runs module.exports = async function(data) in the sandbox and returns its result', async () => {
  const id = await script('module.exports = async function (data) { return { doubled: data.$trigger.body.n * 2, node: typeof process + typeof require + typeof globalThis.fetch + typeof setTimeout }; };');
  expect((await t.request.post(`/flows/trigger/${id}`).send({ n: 21 }).expect(200)).body).toEqual({ doubled: 42, node: 'undefinedundefinedundefinedundefined' });
});

it('a script cannot import Node modules', async () => {
  const id = await script("module.exports = async function () { const fs = await import('node:fs'); return typeof fs.readFileSync; };");
  const response = await t.request.post(`/flows/trigger/${id}`).send({}).expect(400);
  expect(response.body.errors[0].message).toBe("Script failed: could not load module 'node:fs'");
});

it('a script that loops forever is interrupted at the time limit while the server keeps answering', async () => {
  const id = await script('module.exports = async function () { for (;;) {} };');
  const { response, elapsed } = await runWhilePinging(id);
  expect(response.status).toBe(400);
  expect(response.body.errors[0].message).toBe(`Script failed: interrupted after the ${TIME_LIMIT_MS} ms time limit`);
  expect(elapsed).toBeLessThan(TIME_LIMIT_MS + START_MARGIN_MS);
});

it('a script that allocates without end is stopped by the memory or time limit while the server keeps answering', async () => {
  const id = await script('module.exports = async function () { const kept = []; for (;;) kept.push({ n: kept.length, list: [1, 2, 3] }); };');
  const { response, elapsed } = await runWhilePinging(id);
  expect(response.status).toBe(400);
  expect(response.body.errors[0].message).toMatch(/^Script failed: (out of memory|interrupted after the 2000 ms time limit)$/);
  expect(elapsed).toBeLessThan(TIME_LIMIT_MS + START_MARGIN_MS);
});

it('a script that allocates past the memory limit at once is stopped', async () => {
  const id = await script('module.exports = async function () { const buffer = new Uint8Array(128 * 1024 * 1024); return buffer.length; };');
  const response = await t.request.post(`/flows/trigger/${id}`).send({}).expect(400);
  expect(response.body.errors[0].message).toBe('Script failed: out of memory');
});

it('a script whose promise never settles is rejected with a clear message, not left hanging', async () => {
  const id = await script('module.exports = function () { return new Promise(() => {}); };');
  const started = Date.now();
  const response = await t.request.post(`/flows/trigger/${id}`).send({}).expect(400);
  expect(response.body.errors[0].message).toBe('Script failed: the promise the script returned never settles');
  expect(Date.now() - started).toBeLessThan(TIME_LIMIT_MS + START_MARGIN_MS);
});

it('a script that keeps queueing promise jobs is interrupted at the time limit', async () => {
  const id = await script('module.exports = async function again() { await null; return again(); };');
  const { response } = await runWhilePinging(id);
  expect(response.body.errors[0].message).toBe(`Script failed: interrupted after the ${TIME_LIMIT_MS} ms time limit`);
});

it('runs at most FLOWS_EXEC_MAX_CONCURRENT scripts at once; the others wait their turn', async () => {
  // One at a time, and long enough that two started together would overlap even on a busy machine.
  const one = await createTestApp({ FLOWS_EXEC_TIMEOUT: '3s', FLOWS_EXEC_MAX_CONCURRENT: '1' });
  try {
    const admin = await one.login();
    const { id } = await createFlow(one, admin, { name: 'loop', trigger: 'webhook', options: { method: 'POST' } }, [{ key: 'run', type: 'exec', options: { code: 'module.exports = async function () { for (;;) {} };' } }]);
    let most = 0;
    let done = false;
    const watch = (async () => {
      while (!done) {
        most = Math.max(most, runningScripts());
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const responses = await Promise.all([1, 2].map(() => one.request.post(`/flows/trigger/${id}`).send({})));
    done = true;
    await watch;
    expect(responses.map((response) => response.body.errors?.[0]?.message)).toEqual(Array(2).fill('Script failed: interrupted after the 3000 ms time limit'));
    expect(most).toBe(1);
  } finally {
    await one.close();
  }
});
