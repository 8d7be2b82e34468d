/**
 * Realtime delivery bench: opens N WebSocket subscribers to one collection, updates one item over REST and
 * measures, per subscriber, the time from sending the PATCH to receiving the `update` event (p50/p99/max).
 *
 *   node bench/realtime.ts [N]      (N defaults to 1000)
 *
 * Starts its own Tessera process (bench/server.ts) on a fresh database with a per-user connection limit
 * above N; the subscribers are N connections of the administrator, in this process.
 */
import { WebSocket } from 'ws';
import { request } from './api.ts';
import { createBenchDatabase, startServer } from './server.ts';

const count = Number(process.argv[2] ?? 1000);
const admin = { adminEmail: 'bench@example.com', adminPassword: 'bench-password-1' };
const database = await createBenchDatabase();
const server = await startServer({
  databaseUrl: database.url,
  secret: 'bench-secret-that-is-long-enough-0123456789',
  ...admin,
  env: { WEBSOCKETS_MAX_CONNECTIONS_PER_USER: String(count + 10), WEBSOCKETS_HEARTBEAT_PERIOD: '0' },
});
try {
  const { data } = await request<{ data: { access_token: string } }>(server.base, 'POST', '/auth/login', { body: { email: admin.adminEmail, password: admin.adminPassword } });
  const token = data.access_token;
  await request(server.base, 'POST', '/collections', { token, body: { collection: 'bench_live', fields: [{ field: 'title', type: 'string' }] } });
  const id = (await request<{ data: { id: number } }>(server.base, 'POST', '/items/bench_live', { token, body: { title: 'start' } })).data.id;

  let sentAt = 0;
  const latencies: number[] = [];
  let received!: () => void;
  const allReceived = new Promise<void>((resolve) => (received = resolve));
  const sockets: WebSocket[] = [];
  const opened = performance.now();
  for (let batch = 0; batch < count; batch += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, count - batch) }, () =>
        new Promise<void>((resolve, reject) => {
          const ws = new WebSocket(`ws://127.0.0.1:${server.port}/websocket`);
          sockets.push(ws);
          ws.on('error', reject);
          ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', access_token: token })));
          ws.on('message', (raw) => {
            const message = JSON.parse(raw.toString());
            if (message.type === 'auth' && message.status === 'ok') ws.send(JSON.stringify({ type: 'subscribe', collection: 'bench_live', query: { fields: ['id', 'title'] }, uid: 's' }));
            else if (message.event === 'init') resolve();
            else if (message.event === 'update') {
              latencies.push(performance.now() - sentAt);
              if (latencies.length === count) received();
            } else if (message.status === 'error') reject(new Error(JSON.stringify(message)));
          });
        }),
      ),
    );
  }
  const openMs = performance.now() - opened;
  sentAt = performance.now();
  await request(server.base, 'PATCH', `/items/bench_live/${id}`, { token, body: { title: 'changed' } });
  await allReceived;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!.toFixed(1);
  console.log(JSON.stringify({ subscribers: count, connectAndSubscribeMs: Math.round(openMs), p50Ms: at(50), p99Ms: at(99), maxMs: at(100) }));
  for (const ws of sockets) ws.close();
} finally {
  await server.stop();
  await database.drop();
}
