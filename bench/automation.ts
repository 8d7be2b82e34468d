/**
 * Automation overhead bench: item creates on a collection with one active webhook and one event action
 * flow, against creates on an identical collection with neither. Deliveries and flow runs are jobs the
 * server's own worker runs while the load goes on, so their cost counts. Rounds alternate (plain, hooked,
 * plain, …) so drift on a shared machine hits both; the medians are compared.
 *
 *   node bench/automation.ts            (BENCH_DURATION=5 s per round, BENCH_ROUNDS=3, BENCH_CONNECTIONS=10,
 *                                        BENCH_HOOKS=both|webhook|flow: what the hooked collection gets)
 *
 * Starts its own Tessera process (bench/server.ts) on a fresh database and a webhook receiver on 127.0.0.1.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from './api.ts';
import { runLoad, type LoadResult } from './load.ts';
import { createBenchDatabase, startServer } from './server.ts';

const durationS = Number(process.env.BENCH_DURATION ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const hooks = process.env.BENCH_HOOKS ?? 'both';
const admin = { adminEmail: 'bench@example.com', adminPassword: 'bench-password-1' };

let deliveries = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    deliveries++;
    res.end('ok');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const database = await createBenchDatabase();
const server = await startServer({ databaseUrl: database.url, secret: 'bench-secret-that-is-long-enough-0123456789', ...admin, env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } });
try {
  const { data } = await request<{ data: { access_token: string } }>(server.base, 'POST', '/auth/login', { body: { email: admin.adminEmail, password: admin.adminPassword } });
  const token = data.access_token;
  const fields = [{ field: 'title', type: 'string' }, { field: 'views', type: 'integer' }];
  for (const collection of ['plain_posts', 'hooked_posts']) await request(server.base, 'POST', '/collections', { token, body: { collection, fields } });
  if (hooks !== 'flow') await request(server.base, 'POST', '/webhooks', { token, body: { name: 'bench hook', method: 'POST', url: receiverUrl, status: 'active', data: true, actions: ['create'], collections: ['hooked_posts'] } });
  const flow = await request<{ data: { id: string } }>(server.base, 'POST', '/flows', { token, body: { name: 'bench flow', status: hooks === 'webhook' ? 'inactive' : 'active', trigger: 'event', options: { type: 'action', scope: ['items.create'], collections: ['hooked_posts'] } } });
  const operation = await request<{ data: { id: string } }>(server.base, 'POST', '/operations', {
    token,
    body: { flow: flow.data.id, key: 'shape', type: 'transform', position_x: 1, position_y: 1, options: { json: { title: '{{ $trigger.payload.title }}', key: '{{ $trigger.key }}' } } },
  });
  await request(server.base, 'PATCH', `/flows/${flow.data.id}`, { token, body: { operation: operation.data.id } });

  const scenario = (collection: string) => ({
    name: collection,
    kind: 'write' as const,
    directus: null,
    method: 'POST' as const,
    path: `/items/${collection}`,
    example: `POST /items/${collection} {title, views}`,
    next: () => ({ body: JSON.stringify({ title: `post ${Math.random().toString(36).slice(2)}`, views: Math.floor(Math.random() * 1000) }) }),
  });
  const results: Record<string, LoadResult[]> = { plain_posts: [], hooked_posts: [] };
  await runLoad(server.base, token, scenario('plain_posts'), { connections, durationS: 2 }); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const collection of ['plain_posts', 'hooked_posts']) {
      const result = await runLoad(server.base, token, scenario(collection), { connections, durationS });
      results[collection]!.push(result);
      console.log(`round ${round + 1} ${collection}: ${result.rps} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, errors ${result.errors}`);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const plain = median(results.plain_posts!.map((result) => result.rps));
  const hooked = median(results.hooked_posts!.map((result) => result.rps));
  const hookedCreates = results.hooked_posts!.reduce((sum, result) => sum + result.requests, 0);
  // Wait for the queue to drain so the deliveries and runs that were enqueued are shown to have happened.
  const drainStarted = Date.now();
  const runs = async () => Number((await request<{ data: Array<{ count: number | string }> }>(server.base, 'GET', `/activity?filter[action][_eq]=run&filter[item][_eq]=${flow.data.id}&aggregate[count]=*`, { token })).data[0]?.count ?? 0);
  const drained = async () => (hooks === 'flow' || deliveries >= hookedCreates) && (hooks === 'webhook' || (await runs()) >= hookedCreates);
  while (!(await drained()) && Date.now() - drainStarted < 120_000) await new Promise((resolve) => setTimeout(resolve, 250));
  console.log(`\nplain creates ${plain} req/s, with ${hooks === 'both' ? 'a webhook + an action flow' : `only the ${hooks}`} ${hooked} req/s: ${(((plain - hooked) / plain) * 100).toFixed(1)} % slower (target ≤ 15 %)`);
  console.log(`deliveries received ${deliveries} of ${hookedCreates} hooked creates (queue drained in ${Date.now() - drainStarted} ms after the load); flow runs logged: ${await runs()}`);
} finally {
  await server.stop();
  await database.drop();
  receiver.close();
}
