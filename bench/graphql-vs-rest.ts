/**
 * Tessera's CPU per request for the REST `relational` read and the same read over GraphQL, in alternating
 * rounds against one server, so both sides see the same machine load (a shared machine disturbs the long
 * scenarios of bench/run.ts). Needs a seeded bench database: `BENCH_KEEP_DB=1 BENCH_SCENARIOS=relational npm run bench`
 * prints its name. Then:
 *
 *   BENCH_DB=tessera_bench_<pid> npx node bench/graphql-vs-rest.ts
 *
 *   BENCH_ROUNDS=6  BENCH_REQUESTS=1500 (per side per round)  BENCH_CONNECTIONS=10
 */
import { readFileSync } from 'node:fs';
import { request, signIn } from './api.ts';
import { databaseUrl, startServer } from './server.ts';

const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1500);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const database = process.env.BENCH_DB;
if (!database) throw new Error('Set BENCH_DB to a seeded bench database (BENCH_KEEP_DB=1 npm run bench prints it).');

/** utime + stime of a process, in ms (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const server = await startServer({ databaseUrl: databaseUrl(database), secret: 'bench-secret-graphql-vs-rest-0123456789abcdef', adminEmail: ADMIN.email, adminPassword: ADMIN.password });
try {
  const { token } = await signIn(server.base, ADMIN.email, ADMIN.password);
  const sides = {
    rest: () => request(server.base, 'GET', '/items/articles?fields=id,title,author.name&limit=100', { token }),
    graphql: () => request(server.base, 'POST', '/graphql', { token, body: { query: '{ articles(limit: 100) { id title author { name } } }' } }),
  };
  const run = async (send: () => Promise<unknown>, count: number) => {
    let left = count;
    await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
      while (left-- > 0) await send();
    }));
  };
  await run(sides.rest, 500);
  await run(sides.graphql, 500);
  const totals = { rest: 0, graphql: 0 };
  for (let round = 1; round <= ROUNDS; round++) {
    const line: string[] = [];
    for (const side of round % 2 ? (['rest', 'graphql'] as const) : (['graphql', 'rest'] as const)) {
      const before = cpuMs(server.child.pid!);
      await run(sides[side], REQUESTS);
      const perRequest = (cpuMs(server.child.pid!) - before) / REQUESTS;
      totals[side] += perRequest;
      line.push(`${side} ${perRequest.toFixed(3)} ms`);
    }
    process.stdout.write(`round ${round}: ${line.join(', ')}\n`);
  }
  const rest = totals.rest / ROUNDS;
  const graphql = totals.graphql / ROUNDS;
  process.stdout.write(`mean Tessera CPU per request: REST ${rest.toFixed(3)} ms, GraphQL ${graphql.toFixed(3)} ms (${(graphql / rest).toFixed(2)}x)\n`);
} finally {
  await server.stop();
}
