/**
 * Extension hook overhead bench: item creates on a collection that one hook extension filters (changes the
 * payload inside the write) and acts on (after the commit), against creates on an identical collection the
 * hook ignores, on the same server. Rounds alternate (plain, hooked, plain, …) so drift on a shared machine
 * hits both; the medians are compared (target: hooked within 10 % of plain, docs/performance.md).
 *
 *   node bench/extensions.ts      (BENCH_DURATION=5 s per round, BENCH_ROUNDS=3, BENCH_CONNECTIONS=10)
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from './api.ts';
import { createScenario } from './create-scenario.ts';
import { runLoad, type LoadResult } from './load.ts';
import { createBenchDatabase, startServer } from './server.ts';

const durationS = Number(process.env.BENCH_DURATION ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const admin = { adminEmail: 'bench@example.com', adminPassword: 'bench-password-1' };

const HOOK = `let created = 0;
export default ({ filter, action }) => {
  filter('hooked_posts.items.create', (payload) => ({ ...payload, views: (payload.views ?? 0) + 1 }));
  action('hooked_posts.items.create', ({ key }) => { if (key !== undefined) created += 1; });
};
`;

const extensions = await mkdtemp(path.join(tmpdir(), 'tessera-bench-extensions-'));
await mkdir(path.join(extensions, 'bench-hook'));
await writeFile(path.join(extensions, 'bench-hook/package.json'), JSON.stringify({ name: 'bench-hook', version: '1.0.0', type: 'module', 'directus:extension': { type: 'hook', path: 'index.js', host: '^10.0.0' } }));
await writeFile(path.join(extensions, 'bench-hook/index.js'), HOOK);

const database = await createBenchDatabase();
const server = await startServer({ databaseUrl: database.url, secret: 'bench-secret-that-is-long-enough-0123456789', ...admin, env: { EXTENSIONS_PATH: extensions } });
try {
  const { data } = await request<{ data: { access_token: string } }>(server.base, 'POST', '/auth/login', { body: { email: admin.adminEmail, password: admin.adminPassword } });
  const token = data.access_token;
  const fields = [{ field: 'title', type: 'string' }, { field: 'views', type: 'integer' }];
  for (const collection of ['plain_posts', 'hooked_posts']) await request(server.base, 'POST', '/collections', { token, body: { collection, fields } });
  const scenario = createScenario;
  const results: Record<string, LoadResult[]> = { plain_posts: [], hooked_posts: [] };
  await runLoad(server.base, token, scenario('plain_posts'), { connections, durationS: 2 }); // warm-up
  await runLoad(server.base, token, scenario('hooked_posts'), { connections, durationS: 2 });
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
  console.log(`\nplain creates ${plain} req/s, with one filter and one action hook ${hooked} req/s: ${(((plain - hooked) / plain) * 100).toFixed(1)} % slower (target ≤ 10 %)`);
} finally {
  await server.stop();
  await database.drop();
  await rm(extensions, { recursive: true, force: true });
}
