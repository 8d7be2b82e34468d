/**
 * Large schemas (issue 36 item 3, issue 31 item 11): `node bench/schema-scale.ts [--base <ref>]`.
 *
 * On one fresh database: applies the generated project of bench/snapshot.ts with 130 collections (20 fields
 * each with `--fields 20`), times adding one field over the API; grows it to 500 collections, then times
 * GET /fields, /collections and /relations, adding one field, the GraphQL and OpenAPI schema builds after a
 * schema change (and warm), a snapshot apply of a 50-collection diff (a field created and one changed, and
 * the collection's note changed, in each), and an m2m read with `fields=*.*.*.*.*` filtering three levels deep
 * on 141 rows. Each row: median wall ms, CPU ms of the server's thread (GETs come from a client thread that
 * reads each body to its end and drops it; the other calls from the server's thread), and SQL statements
 * (pg's Client#query counted, as bench/statement-counter.ts does).
 *
 * With `--base <ref>` the same script (and bench/generated-snapshot.ts) runs first in a temporary git worktree
 * of that ref (node_modules linked), then in this tree, and both columns are printed side by side.
 * docs/performance.md, "Large schemas", keeps the numbers.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import pg from 'pg';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    base: { type: 'string' },
    collections: { type: 'string', default: '500' },
    small: { type: 'string', default: '130' },
    fields: { type: 'string', default: '20' },
    runs: { type: 'string', default: '7' },
    json: { type: 'boolean', default: false },
  },
});

interface Row {
  name: string;
  wallMs: number;
  cpuMs: number;
  statements: number;
}

/** What Chrome and Firefox send over HTTP/1.1 (the admin); the kept schema lists answer br to it. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

const log = (line: string) => process.stdout.write(`${line}\n`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

let statements = 0;
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function countingQuery(this: pg.Client, ...rest: unknown[]): unknown {
  statements += 1;
  return (original as (...a: unknown[]) => unknown).apply(this, rest);
} as typeof original;

/**
 * Runs `work` `runs` times (after one unmeasured run unless `cold`), each after an unmeasured `prepare`;
 * medians of wall and CPU time and of statements per run.
 */
async function measure(name: string, runs: number, work: (run: number) => Promise<unknown>, options: { cold?: boolean; prepare?: () => Promise<unknown> } = {}): Promise<Row> {
  if (!options.cold) await work(-1);
  const walls: number[] = [];
  const cpus: number[] = [];
  const counts: number[] = [];
  for (let run = 0; run < runs; run++) {
    await options.prepare?.();
    const cpu = process.threadCpuUsage();
    const before = statements;
    const started = performance.now();
    await work(run);
    walls.push(performance.now() - started);
    const used = process.threadCpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
    counts.push(statements - before);
  }
  const row = { name, wallMs: median(walls), cpuMs: median(cpus), statements: median(counts) };
  // Each row as soon as it is measured (stderr): a run that fails later still leaves what it measured.
  process.stderr.write(`row ${JSON.stringify(row)}\n`);
  return row;
}

async function measureHere(): Promise<Row[]> {
  const { systemAccountability } = await import('../server/auth/accountability.ts');
  const { createApp } = await import('../server/app.ts');
  const { createAppContext } = await import('../server/app-context.ts');
  const { loadConfig } = await import('../server/config/index.ts');
  const { openDatabase } = await import('../server/database/database.ts');
  const { migrateLatest } = await import('../server/database/migrations.ts');
  const { createLogger } = await import('../server/logger.ts');
  const { bootstrapDatabase } = await import('../server/services/bootstrap.ts');
  const { parseSnapshotDocument } = await import('../server/snapshot/load-snapshot.ts');
  const { SnapshotService } = await import('../server/snapshot/snapshot-service.ts');
  const { generatedSnapshot } = await import('./generated-snapshot.ts');
  const { createBenchDatabase } = await import('./server.ts');
  const { signIn } = await import('./api.ts');

  const runs = Number(args.runs);
  const extra = Math.max(0, Number(args.fields) - 10);
  const database = await createBenchDatabase('_schema');
  const admin = { email: 'bench@example.com', password: 'bench-password-1' };
  // No statement timeout: on a loaded machine one whole-schema read of the base took more than the default 10 s;
  // and a long token: main's side ran past the default 15 minutes.
  const config = loadConfig({ DB_URL: database.url, LOG_LEVEL: 'error', SECRET: 'bench-secret-that-is-long-enough-0123456789', ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password, DB_STATEMENT_TIMEOUT: '0', DB_CONNECT_TIMEOUT: '60s', ACCESS_TOKEN_TTL: '1d' });
  const logger = createLogger(config.log);
  const db = await openDatabase(config, logger);
  const context = createAppContext(config as typeof config & { secret: string }, logger, db);
  let server: ReturnType<typeof createServer> | null = null;
  const client = startClient();
  const rows: Row[] = [];
  try {
    await migrateLatest(db.orm);
    await bootstrapDatabase(context.servicesContext(systemAccountability()));
    server = createServer(createApp(context).callback());
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const api = await signIn(base, admin.email, admin.password);
    const snapshots = new SnapshotService({ db: db.kysely(), schemaCache: context.schema, servicesContext: context.servicesContext }, systemAccountability(), {});
    const get = (route: string) => client.get(`${base}${route}`, api.token, 'identity');
    const asBrowser = (route: string) => client.get(`${base}${route}`, api.token, BROWSER_ACCEPT_ENCODING);
    const small = Number(args.small);
    const target = `bench_${String(Math.ceil(small / 2)).padStart(3, '0')}`;
    let added = 0;
    const addField = () => api.call('POST', `/fields/${target}`, { field: `added_${++added}`, type: 'string' });

    await snapshots.apply(parseSnapshotDocument(generatedSnapshot(small, extra), 'generated'));
    rows.push(await measure(`add one field (${small} collections)`, runs, addField));

    const count = Number(args.collections);
    const full = generatedSnapshot(count, extra);
    await snapshots.apply(parseSnapshotDocument(full, 'generated'));
    const size = `${count}×${10 + extra}`;
    for (const route of ['/fields', '/collections', '/relations']) rows.push(await measure(`GET ${route} (${size})`, runs, () => get(route)));
    for (const encoding of ['identity', 'gzip', 'br']) {
      await client.get(`${base}/fields`, api.token, encoding);
      log(`GET /fields (${size}) sent ${encoding}: ${lastWire.bytes} bytes (${lastWire.coding})`);
    }
    rows.push(await measure(`GET /fields (${size}), as a browser asks (br, decoded)`, runs, () => asBrowser('/fields')));
    rows.push(await measure(`add one field (${count} collections)`, runs, addField));
    const changed = { cold: true, prepare: addField };
    rows.push(await measure(`GET /fields, first after a field change (${size})`, runs, () => get('/fields'), changed));
    rows.push(await measure(`GET /fields, first after a field change, as a browser asks (${size})`, runs, () => asBrowser('/fields'), changed));

    const graphql = () => api.call('POST', '/graphql', { query: '{ bench_001(limit: 1) { id } }' });
    rows.push(await measure(`GraphQL: first query after a field change (${size})`, runs, graphql, changed));
    rows.push(await measure(`GraphQL: query, schema built (${size})`, runs, graphql));
    rows.push(await measure(`OpenAPI: GET /server/specs/oas, first after a field change (${size})`, runs, () => get('/server/specs/oas'), changed));
    rows.push(await measure(`OpenAPI: GET /server/specs/oas, built (${size})`, runs, () => get('/server/specs/oas')));

    // A 50-collection diff: in each, one field created, one field's metadata and the collection's note changed.
    let round = 0;
    let steps = 0;
    rows.push(await measure(`snapshot apply of a 50-collection diff (${count} collections)`, Math.max(1, Math.floor(runs / 3)), async () => {
      round += 1;
      const desired = structuredClone(full) as { collections: Array<{ collection: string; meta: Record<string, unknown> }>; fields: Array<Record<string, any>> };
      for (const collection of desired.collections.slice(0, 50)) {
        collection.meta = { ...collection.meta, note: `changed in round ${round}` };
        desired.fields.push({ collection: collection.collection, field: `diffed_${round}`, type: 'string', meta: {}, schema: {} });
        const title = desired.fields.find((field) => field.collection === collection.collection && field.field === 'title')!;
        title.meta = { ...title.meta, note: `round ${round}` };
      }
      // Fields the earlier rounds created stay, so the diff is the same size every round.
      for (let earlier = 1; earlier < round; earlier++) {
        for (const collection of desired.collections.slice(0, 50)) desired.fields.push({ collection: collection.collection, field: `diffed_${earlier}`, type: 'string', meta: {}, schema: {} });
      }
      for (let index = 1; index <= added; index++) desired.fields.push({ collection: target, field: `added_${index}`, type: 'string', meta: {}, schema: {} });
      const result = await snapshots.apply(parseSnapshotDocument(desired, 'generated'), { allowDataLoss: false });
      const own = result.plan.steps.filter((step) => !step.name.startsWith('bench_') || Number(step.name.slice(6, 9)) > 50);
      if (own.length > 0) log(`(the diff also had: ${own.map((step) => `${step.kind} ${step.name} ${step.action}`).join(', ')})`);
      steps = result.plan.steps.length;
    }, { cold: true }));
    rows.at(-1)!.name += `, ${steps} steps`;

    rows.push(await deepRead(api, (route) => get(route), runs));
  } finally {
    server?.close();
    await client.close();
    await context.dispose();
    await db.close();
    await database.drop();
  }
  return rows;
}

/**
 * The client of the GET rows, on a worker thread: it reads each body to its end (decoding it, as a browser
 * does, when the server sent it gzip- or br-encoded) and drops it, as `curl -o /dev/null` in its own process
 * would, while the server's thread only serves. Through fetch() on
 * the server's thread, buffering 7 MB through web streams cost more than the server's answer did.
 */
const CLIENT = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const zlib = require('node:zlib');
parentPort.on('message', ({ id, url, token, encoding }) => {
  http.get(url, { headers: { Authorization: 'Bearer ' + token, 'Accept-Encoding': encoding } }, (response) => {
    const coding = response.headers['content-encoding'];
    const body = coding === 'br' ? response.pipe(zlib.createBrotliDecompress()) : coding === 'gzip' ? response.pipe(zlib.createGunzip()) : response;
    let length = 0;
    let wire = 0;
    const chunks = [];
    response.on('data', (chunk) => { wire += chunk.length; });
    body.on('data', (chunk) => { length += chunk.length; if (response.statusCode !== 200) chunks.push(chunk); });
    body.on('end', () => parentPort.postMessage({ id, length, wire, coding: coding ?? 'identity', error: response.statusCode === 200 ? null : response.statusCode + ' ' + Buffer.concat(chunks) }));
  }).on('error', (error) => parentPort.postMessage({ id, error: String(error) }));
});`;

/**
 * Starts the GET client thread; `get(url, token, encoding)` resolves with the decoded body's length.
 * `encoding` is the Accept-Encoding sent: `identity`, or what a browser sends.
 */
let lastWire = { coding: 'identity', bytes: 0 };

function startClient(): { get(url: string, token: string, encoding: string): Promise<number>; close(): Promise<number> } {
  const worker = new Worker(CLIENT, { eval: true });
  const waiting = new Map<number, { resolve(length: number): void; reject(error: Error): void }>();
  let next = 0;
  worker.on('message', ({ id, length, wire, coding, error }: { id: number; length: number; wire: number; coding: string; error: string | null }) => {
    const request = waiting.get(id)!;
    waiting.delete(id);
    if (error) request.reject(new Error(error));
    else {
      lastWire = { coding, bytes: wire };
      request.resolve(length);
    }
  });
  return {
    get: (url, token, encoding) => new Promise((resolve, reject) => {
      waiting.set(++next, { resolve, reject });
      worker.postMessage({ id: next, url, token, encoding });
    }),
    close: () => worker.terminate(),
  };
}

/** posts ⇄ tags (m2m), tags → owners → regions (m2o): 141 posts, 3 tags each; read all of it filtering three levels deep. */
async function deepRead(api: import('./api.ts').Api, get: (route: string) => Promise<unknown>, runs: number): Promise<Row> {
  const make = (collection: string, fields: Array<Record<string, unknown>>) => api.call('POST', '/collections', { collection, fields: [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } }, ...fields] });
  await make('dm_regions', [{ field: 'name', type: 'string' }]);
  await make('dm_owners', [{ field: 'name', type: 'string' }, { field: 'region', type: 'integer' }]);
  await make('dm_tags', [{ field: 'name', type: 'string' }, { field: 'owner', type: 'integer' }]);
  await make('dm_posts', [{ field: 'title', type: 'string' }]);
  await make('dm_posts_tags', [{ field: 'dm_posts_id', type: 'integer' }, { field: 'dm_tags_id', type: 'integer' }]);
  await api.call('POST', '/relations', { collection: 'dm_owners', field: 'region', related_collection: 'dm_regions' });
  await api.call('POST', '/relations', { collection: 'dm_tags', field: 'owner', related_collection: 'dm_owners' });
  await api.call('POST', '/relations', { collection: 'dm_posts_tags', field: 'dm_posts_id', related_collection: 'dm_posts', meta: { one_field: 'tags', junction_field: 'dm_tags_id' } });
  await api.call('POST', '/relations', { collection: 'dm_posts_tags', field: 'dm_tags_id', related_collection: 'dm_tags', meta: { junction_field: 'dm_posts_id' } });
  await api.call('POST', '/items/dm_regions', [{ name: 'north' }, { name: 'south' }]);
  await api.call('POST', '/items/dm_owners', Array.from({ length: 6 }, (_, index) => ({ name: `owner ${index}`, region: (index % 2) + 1 })));
  await api.call('POST', '/items/dm_tags', Array.from({ length: 12 }, (_, index) => ({ name: `tag ${index}`, owner: (index % 6) + 1 })));
  await api.call('POST', '/items/dm_posts', Array.from({ length: 141 }, (_, index) => ({ title: `post ${index}`, tags: [1, 2, 3].map((offset) => ({ dm_tags_id: ((index + offset) % 12) + 1 })) })));
  const route = '/items/dm_posts?fields=*.*.*.*.*&filter[tags][dm_tags_id][owner][region][name][_eq]=north&limit=-1';
  return measure('m2m read, fields=*.*.*.*.*, filter 3 levels deep (141 posts)', runs, () => get(route));
}

function printTable(columns: Array<{ label: string; rows: Row[] }>): void {
  const head = columns.map((column) => `${column.label}: wall / CPU / statements`);
  log(`| row | ${head.join(' | ')} |`);
  log(`|---|${columns.map(() => '---').join('|')}|`);
  for (const [index, row] of columns[0]!.rows.entries()) {
    const cells = columns.map((column) => {
      const cell = column.rows[index]!;
      return `${Math.round(cell.wallMs)} ms / ${Math.round(cell.cpuMs)} ms / ${cell.statements}`;
    });
    log(`| ${row.name} | ${cells.join(' | ')} |`);
  }
  log(`load average after: ${loadavg().map((value) => value.toFixed(1)).join(' ')}`);
}

/** Runs this script in a worktree of `ref` (with this tree's script and generator) and returns its rows. */
function measureBase(ref: string): Row[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-schema-scale-'));
  const git = (...gitArgs: string[]) => execFileSync('git', gitArgs, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    git('worktree', 'add', '--detach', dir, ref);
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    for (const file of ['bench/schema-scale.ts', 'bench/generated-snapshot.ts']) copyFileSync(path.join(ROOT, file), path.join(dir, file));
    const forwarded = ['--collections', args.collections!, '--small', args.small!, '--fields', args.fields!, '--runs', args.runs!, '--json'];
    const result = spawnSync(process.execPath, [path.join(dir, 'bench/schema-scale.ts'), ...forwarded], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (result.status !== 0) throw new Error(`${ref}: exit ${result.status}\n${result.stdout}\n${result.stderr}`);
    return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Row[];
  } finally {
    try {
      git('worktree', 'remove', '--force', dir);
    } catch {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

if (args.base) {
  const base = measureBase(args.base);
  const head = await measureHere();
  printTable([
    { label: args.base, rows: base },
    { label: 'this tree', rows: head },
  ]);
} else {
  const rows = await measureHere();
  if (args.json) log(JSON.stringify(rows));
  else printTable([{ label: 'this tree', rows }]);
}
