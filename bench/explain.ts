/**
 * Profiling helper: for each scenario, the SQL Tessera compiles (through the same server functions the
 * items endpoints use), its EXPLAIN ANALYZE, the SQL's own time (sequential runs), and the JS cost of
 * parsing + compiling the query. Run against a database kept by `BENCH_KEEP_DB=1 npm run bench`:
 *
 *   node bench/explain.ts postgres://postgres@127.0.0.1:5432/tessera_bench_<pid> [scenario …]
 *
 * Reads only; nothing is written.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { systemAccountability } from '../server/auth/accountability.ts';
import { compileAggregateQuery } from '../server/query/compile-aggregate.ts';
import { compileReadQuery, type CompiledRead } from '../server/query/compile-read.ts';
import { parseQuery } from '../server/query/parse-query.ts';
import type { Query } from '../server/query/types.ts';
import { readSchemaOverview } from '../server/schema/read-schema.ts';
import type { SchemaOverview } from '../server/schema/overview.ts';
import { scenarios } from './scenarios.ts';

const url = process.argv[2];
if (!url) {
  process.stderr.write('usage: node bench/explain.ts <database-url> [scenario …]\n');
  process.exit(2);
}
const wanted = new Set(process.argv.slice(3));
const RUNS = Number(process.env.EXPLAIN_RUNS ?? 50);

const pool = new pg.Pool({ connectionString: url, max: 2 });
const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });

/** Compiles a request path the way the items controller and ItemsService do. */
function compile(schema: SchemaOverview, requestPath: string): CompiledRead {
  const [pathname, querystring = ''] = requestPath.split('?') as [string, string?];
  const [, , collection, id] = pathname.split('/');
  let query: Query = parseQuery(querystring);
  if (id !== undefined) query = { ...query, filter: { id: { _in: [Number(id)] } }, limit: 1, offset: 0 };
  const options = { accountability: systemAccountability() };
  return query.aggregate || query.groupBy ? compileAggregateQuery(schema, collection!, query, options) : compileReadQuery(schema, collection!, query, options);
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

async function main(): Promise<void> {
  const schema = await readSchemaOverview(db);
  const ids = (await db.selectFrom('articles').select('id').orderBy('id').limit(10_000).execute()).map((row) => row.id as number);
  const extra: Array<{ name: string; path: string }> = [{ name: 'm2m', path: '/items/parents?fields=*,children.*&limit=-1' }];
  const all = [...scenarios(ids, [], { email: '', password: '' }).filter((s) => s.method === 'GET').map((s) => ({ name: s.name, path: s.name === 'read_one' ? `/items/articles/${ids[4321]}` : s.path })), ...extra];
  for (const scenario of all.filter((s) => wanted.size === 0 || wanted.has(s.name))) {
    const compiled = compile(schema, scenario.path);
    const { sql: text, parameters } = compiled.statement.compile(db);
    process.stdout.write(`\n=== ${scenario.name}: GET ${scenario.path}\n${text}\n-- parameters: ${JSON.stringify(parameters)}\n`);

    // JS side: parse + compile + Kysely's compile to SQL text, as every request does.
    const jsRuns = 2000;
    let started = performance.now();
    for (let i = 0; i < jsRuns; i++) compile(schema, scenario.path).statement.compile(db);
    const jsUs = ((performance.now() - started) / jsRuns) * 1000;

    const runs = scenario.name === 'm2m' ? 2 : RUNS;
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i <= runs; i++) {
      started = performance.now();
      const { rows } = await db.executeQuery(compiled.statement.compile(db));
      if (i > 0) times.push(performance.now() - started);
      bytes = JSON.stringify(rows.map((row) => (row as { data: unknown }).data)).length;
    }
    const { rows: plan } = await sql.raw<{ 'QUERY PLAN': string }>(`explain (analyze, buffers, verbose off, costs on) ${text}`).execute(db).catch(async () => {
      // Parameters: explain a prepared statement instead.
      const client = await pool.connect();
      try {
        await client.query(`prepare explain_me as ${text}`);
        const values = parameters.map((p) => (typeof p === 'string' ? `'${p.replaceAll("'", "''")}'` : JSON.stringify(p))).join(', ');
        const result = await client.query(`explain (analyze, buffers, costs on) execute explain_me${parameters.length ? `(${values})` : ''}`);
        await client.query('deallocate explain_me');
        return { rows: result.rows as Array<{ 'QUERY PLAN': string }> };
      } finally {
        client.release();
      }
    });
    process.stdout.write(`${plan.map((row) => row['QUERY PLAN']).join('\n')}\n`);
    process.stdout.write(
      `-- ${scenario.name}: SQL round trip ${mean(times).toFixed(2)} ms mean over ${runs} sequential runs (=> ${(1000 / mean(times)).toFixed(0)}/s on one connection); ` +
        `parse+compile ${jsUs.toFixed(0)} µs; result ${(bytes / 1024).toFixed(1)} KB of JSON\n`,
    );
  }
}

try {
  await main();
} finally {
  await db.destroy();
}
