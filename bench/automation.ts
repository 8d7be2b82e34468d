/**
 * Automation overhead bench: item creates on a collection with one active webhook and one event action
 * flow, against creates on an identical collection with neither. Deliveries and flow runs are jobs the
 * server's own worker runs while the load goes on, so their cost counts. Rounds alternate (plain, hooked,
 * plain, …) so drift on a shared machine hits both; the medians are compared.
 *
 *   node bench/automation.ts            (BENCH_DURATION=5 s per round, BENCH_ROUNDS=3, BENCH_CONNECTIONS=10,
 *                                        BENCH_HOOKS=both|webhook|flow: what the hooked collection gets,
 *                                        JOBS_WORKER=process|inline, JOBS_BUSY_RATE: passed to the server)
 *
 * Starts its own Tessera process (bench/server.ts) on a fresh database and a webhook receiver on 127.0.0.1.
 * Before the load it measures, at idle, the delay from a create's answer to its webhook's arrival. After
 * every round it waits for the job queue to drain (so one round's backlog never loads the next) and reports
 * how long that took. CPU per request is read from /proc: the Tessera process alone, its child processes
 * (the job worker in JOBS_WORKER=process), and the database's PostgreSQL processes; for hooked rounds also
 * over load + drain, which is every CPU millisecond a create cost including its delivery and flow run.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { request } from './api.ts';
import { createScenario } from './create-scenario.ts';
import { snapshot, usageBetween } from './cpu.ts';
import { runLoad, type LoadResult } from './load.ts';
import { benchPostgresPids, queuedJobs } from './postgres-pids.ts';
import { createBenchDatabase, startServer } from './server.ts';

const durationS = Number(process.env.BENCH_DURATION ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const hooks = process.env.BENCH_HOOKS ?? 'both';
const admin = { adminEmail: 'bench@example.com', adminPassword: 'bench-password-1' };

let deliveries = 0;
/** When each delivered title arrived (for the idle delay). */
const arrivals = new Map<string, number>();
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    deliveries++;
    const title = /"title":"(idle [^"]+)"/.exec(Buffer.concat(chunks).toString('utf8'))?.[1];
    if (title) arrivals.set(title, performance.now());
    res.end('ok');
  });
});

/** CPU milliseconds of one process alone (utime + stime), from /proc. */
function ownCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const database = await createBenchDatabase();
const server = await startServer({ databaseUrl: database.url, secret: 'bench-secret-that-is-long-enough-0123456789', ...admin, env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', ...(process.env.JOBS_WORKER ? { JOBS_WORKER: process.env.JOBS_WORKER } : {}), ...(process.env.JOBS_BUSY_RATE ? { JOBS_BUSY_RATE: process.env.JOBS_BUSY_RATE } : {}) } });
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

  const scenario = createScenario;
  const waitForDrain = async () => {
    const started = Date.now();
    while ((await queuedJobs(database.url)) > 0 && Date.now() - started < 300_000) await new Promise((resolve) => setTimeout(resolve, 100));
    return Date.now() - started;
  };
  const serverPid = server.child.pid!;

  // Idle: the delay from a create's answer to its webhook's arrival, one create at a time.
  const idleDelays: number[] = [];
  if (hooks !== 'flow') {
    // The first create only waits for the job worker to be up (it starts after the server answers).
    for (let i = -1; i < 7; i++) {
      const title = `idle ${i} ${Math.random().toString(36).slice(2)}`;
      await request(server.base, 'POST', '/items/hooked_posts', { token, body: { title, views: i } });
      const answered = performance.now();
      const started = Date.now();
      while (!arrivals.has(title) && Date.now() - started < 30_000) await new Promise((resolve) => setTimeout(resolve, 2));
      if (i >= 0) idleDelays.push(Math.round((arrivals.get(title) ?? Number.NaN) - answered));
      await waitForDrain();
    }
  }

  const results: Record<string, LoadResult[]> = { plain_posts: [], hooked_posts: [] };
  const cpuRows: string[] = [];
  await runLoad(server.base, token, scenario('plain_posts'), { connections, durationS: 2 }); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const collection of ['plain_posts', 'hooked_posts']) {
      const pgPids = await benchPostgresPids(database.url, database.name);
      const before = snapshot(serverPid, pgPids);
      const ownBefore = ownCpuMs(serverPid);
      const result = await runLoad(server.base, token, scenario(collection), { connections, durationS });
      // Backends the pool opened during the round count from their start (all of their CPU is this round's).
      const roundPids = [...new Set([...pgPids, ...(await benchPostgresPids(database.url, database.name))])];
      const during = snapshot(serverPid, roundPids);
      const ownDuring = ownCpuMs(serverPid);
      const drainMs = await waitForDrain();
      const afterDrain = snapshot(serverPid, [...new Set([...roundPids, ...(await benchPostgresPids(database.url, database.name))])]);
      // The job worker's own backends (application_name tessera_jobs), over the round and its drain.
      const jobPids = await benchPostgresPids(database.url, database.name, 'tessera_jobs');
      const onlyJobs = (usage: typeof before) => ({ ...usage, postgres: new Map([...usage.postgres!].filter(([pid]) => jobPids.includes(pid))) });
      const jobsPgLoad = usageBetween(onlyJobs(before), onlyJobs(during), result.requests).postgresMs;
      const jobsPg = usageBetween({ ...before, postgres: new Map([...before.postgres!].filter(([pid]) => jobPids.includes(pid))) }, { ...afterDrain, postgres: new Map([...afterDrain.postgres!].filter(([pid]) => jobPids.includes(pid))) }, result.requests).postgresMs;
      results[collection]!.push(result);
      const load = usageBetween(before, during, result.requests);
      const all = usageBetween(before, afterDrain, result.requests);
      const own = Math.round(((ownDuring - ownBefore) / Math.max(1, result.requests)) * 1000) / 1000;
      console.log(
        `round ${round + 1} ${collection}: ${result.rps} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, errors ${result.errors}; ` +
          `queue drained ${drainMs} ms after the load; machine busy ${load.busyPercent} %`,
      );
      cpuRows.push(
        `| ${round + 1} | ${collection} | ${result.rps} | ${own} | ${load.serverMs} | ${load.postgresMs} | ${jobsPgLoad} | ${all.serverMs} | ${all.postgresMs} | ${jobsPg} | ${drainMs} | ${load.busyPercent} % |`,
      );
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const plain = median(results.plain_posts!.map((result) => result.rps));
  const hooked = median(results.hooked_posts!.map((result) => result.rps));
  const hookedCreates = results.hooked_posts!.reduce((sum, result) => sum + result.requests, 0) + idleDelays.length + (idleDelays.length ? 1 : 0);
  const runs = async () => Number((await request<{ data: Array<{ count: number | string }> }>(server.base, 'GET', `/activity?filter[action][_eq]=run&filter[item][_eq]=${flow.data.id}&aggregate[count]=*`, { token })).data[0]?.count ?? 0);
  console.log('\nCPU ms per create (server = the Tessera process; +children = with its job worker process; load = during the round; +drain = until its queue was empty)');
  console.log('| round | collection | req/s | server | server+children, load | PostgreSQL, load | of which job connections, load | server+children, +drain | PostgreSQL, +drain | of which job connections | drain ms | machine busy |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of cpuRows) console.log(row);
  console.log(`\nplain creates ${plain} req/s, with ${hooks === 'both' ? 'a webhook + an action flow' : `only the ${hooks}`} ${hooked} req/s: ${(((plain - hooked) / plain) * 100).toFixed(1)} % slower (target ≤ 15 %)`);
  if (idleDelays.length) console.log(`idle delay from a create's answer to its webhook delivery (negative: it arrived before the answer was read): ${idleDelays.join(', ')} ms (median ${median(idleDelays)} ms)`);
  console.log(`deliveries received ${deliveries} of ${hookedCreates} hooked creates; flow runs logged: ${await runs()}`);
} finally {
  await server.stop();
  await database.drop();
  receiver.close();
}
