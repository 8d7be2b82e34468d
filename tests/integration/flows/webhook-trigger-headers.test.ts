import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createFlow } from './flow-fixture.ts';

/** docs/automation.md: a webhook trigger's `$trigger` carries the request's headers but never its credentials (issue 37 item 1). */
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(async () => {
  await t.context.events.idle();
  await t?.close();
});

it('hands the operations the request headers without authorization or cookie', async () => {
  const { id } = await createFlow(t, token, { name: 'echo headers', trigger: 'webhook', options: { method: 'POST' } }, [
    { key: 'echo', type: 'transform', options: { json: { headers: '{{ $trigger.headers }}', method: '{{ $trigger.method }}' } } },
  ]);
  const response = await t.request
    .post(`/flows/trigger/${id}`)
    .set({ Authorization: `Bearer ${token}`, Cookie: 'directus_session_token=secret-session; other=1', 'X-Tenant': 'acme' })
    .send({ hello: 'world' })
    .expect(200);
  const answer = response.body;
  expect(answer.method).toBe('POST');
  expect(answer.headers['x-tenant']).toBe('acme');
  expect(Object.keys(answer.headers)).not.toContain('authorization');
  expect(Object.keys(answer.headers)).not.toContain('cookie');
  expect(JSON.stringify(answer)).not.toMatch(/secret-session|Bearer/);
});
