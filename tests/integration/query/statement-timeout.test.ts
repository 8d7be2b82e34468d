import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../../helpers/listen.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * DB_STATEMENT_TIMEOUT and cancel-on-disconnect against real PostgreSQL. The slow read is a real query
 * shape: `nodes` with a one-to-many `links` whose foreign key has no index (Tessera indexes the foreign
 * keys it creates; a relation on an existing column or a dropped index has none), read with `limit=-1` and
 * `links.id`, so each of 60,000 nodes runs a correlated subquery scanning 60,000 links (minutes: 20,000 took
 * 23 s, and the cost grows with the square). No check here times anything: a timeout is proven by its
 * error code, a cancel by the statement leaving pg_stat_activity long before it could have finished.
 */
const SLOW_READ = '/items/nodes?fields=id,links.id&limit=-1&sort=id';
const ROWS = 60_000;

async function slowDataset(t: TestApp, token: string): Promise<void> {
  const auth = { Authorization: `Bearer ${token}` };
  await t.request.post('/collections').set(auth).send({ collection: 'nodes', fields: [{ field: 'label', type: 'string' }] }).expect(200);
  await t.request.post('/collections').set(auth).send({ collection: 'links', fields: [{ field: 'node', type: 'integer' }] }).expect(200);
  await t.request.post('/relations').set(auth).send({ collection: 'links', field: 'node', related_collection: 'nodes', meta: { one_field: 'links' } }).expect(200);
  // Straight into the database, outside the app's pool and its statement timeout.
  const client = new pg.Client({ connectionString: t.testDatabase.url });
  await client.connect();
  try {
    await client.query(`insert into nodes (label) select 'n' || g from generate_series(1, ${ROWS}) as g`);
    await client.query(`insert into links (node) select (g % ${ROWS}) + 1 from generate_series(1, ${ROWS}) as g`);
    const { rows } = await client.query(`select indexname from pg_indexes where tablename = 'links' and indexdef like '%(node)%'`);
    for (const row of rows) await client.query(`drop index "${row.indexname}"`);
    await client.query('analyze nodes; analyze links');
  } finally {
    await client.end();
  }
}

/** Statements of this database running the slow read right now. */
async function runningSlowReads(t: TestApp): Promise<number> {
  const client = new pg.Client({ connectionString: t.testDatabase.url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'active' and pid <> pg_backend_pid() and query like '%"links"%'`,
    );
    return rows[0].n as number;
  } finally {
    await client.end();
  }
}

describe('DB_STATEMENT_TIMEOUT', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ DB_STATEMENT_TIMEOUT: '400ms' });
    token = await t.login();
    await slowDataset(t, token);
  }, 60_000);
  afterAll(() => t?.close());

  it('is set on every pooled connection', async () => {
    const { rows } = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(t.context.database.kysely());
    expect(rows[0]?.statement_timeout).toBe('400ms');
    await expect(sql`select pg_sleep(3)`.execute(t.context.database.kysely())).rejects.toMatchObject({ code: '57014' });
  });

  it('stops a slow read with 503 QUERY_TIMEOUT, also when it runs again as a prepared statement', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await t.request.get(SLOW_READ).set('Authorization', `Bearer ${token}`);
      expect(response.status).toBe(503);
      expect(response.body.errors[0].extensions.code).toBe('QUERY_TIMEOUT');
    }
    // The connections are healthy afterwards.
    const quick = await t.request.get('/items/nodes?fields=id,links.id&limit=2&sort=id').set('Authorization', `Bearer ${token}`).expect(200);
    expect(quick.body.data).toEqual([
      { id: 1, links: [{ id: ROWS }] },
      { id: 2, links: [{ id: 1 }] },
    ]);
  });
});

describe('DB_STATEMENT_TIMEOUT=0 and a client that goes away', () => {
  let t: TestApp;
  let token: string;
  let server: Listening;
  beforeAll(async () => {
    t = await createTestApp({ DB_STATEMENT_TIMEOUT: '0' });
    token = await t.login();
    await slowDataset(t, token);
    server = await listen(t);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  /** Each slow read, sent with `signal`: a REST read and the same read as a POST /graphql query. */
  const slowReads = [
    {
      title: 'cancels the read in PostgreSQL when the client disconnects',
      send: (signal: AbortSignal) => fetch(`${server.url}${SLOW_READ}`, { headers: { Authorization: `Bearer ${token}` }, signal }),
    },
    {
      title: 'cancels the read of a POST /graphql query when the client disconnects',
      send: (signal: AbortSignal) => {
        const body = JSON.stringify({ query: '{ nodes(limit: -1, sort: ["id"]) { id links { id } } }' });
        const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
        return fetch(`${server.url}/graphql`, { method: 'POST', headers, body, signal });
      },
    },
  ];

  it.each(slowReads)('$title', { timeout: 180_000 }, async ({ send }) => {
    const controller = new AbortController();
    const request = send(controller.signal).catch((error: Error) => error);
    // Limits sized for a loaded machine; the statement's own run time (minutes) is far longer.
    await expect.poll(() => runningSlowReads(t), { timeout: 60_000 }).toBe(1);
    controller.abort();
    expect(await request).toBeInstanceOf(Error);
    // Without the cancel the statement runs on for minutes, far past this poll's limit.
    await expect.poll(() => runningSlowReads(t), { timeout: 60_000 }).toBe(0);
  });
});
