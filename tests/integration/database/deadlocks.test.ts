import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTransaction } from '../../../server/database/transaction-retry.ts';
import { TransactionConflictError } from '../../../server/errors.ts';
import { extensionDatabase } from '../../../server/extensions/context/database.ts';
import { createExtensionServices } from '../../../server/extensions/context/services.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const CLIENTS = 20;
const ROUNDS = 10;

/** A random order of `items`. */
function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

describe('concurrent batch updates of the same items', () => {
  let t: TestApp;
  let auth: { Authorization: string };
  let keys: number[];

  beforeAll(async () => {
    t = await createTestApp({ DB_POOL_MAX: String(CLIENTS) });
    auth = { Authorization: `Bearer ${await t.login()}` };
    await t.request.post('/collections').set(auth).send({ collection: 'counters', fields: [{ field: 'label', type: 'string' }, { field: 'round', type: 'integer' }] }).expect(200);
    const created = await t.request.post('/items/counters').set(auth).send([1, 2, 3, 4, 5].map((n) => ({ label: `item ${n}`, round: 0 }))).expect(200);
    keys = created.body.data.map((item: { id: number }) => item.id);
  });
  afterAll(() => t.close());

  it(`answers all ${CLIENTS}×${ROUNDS} array-form batches (each naming the 5 items in its own order) with 200`, async () => {
    const started = Date.now();
    const statuses = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        const seen: number[] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          const body = shuffled(keys).map((id) => ({ id, label: `client ${client}`, round }));
          seen.push((await t.request.patch('/items/counters').set(auth).send(body)).status);
        }
        return seen;
      }),
    );
    const elapsed = Date.now() - started;
    expect(statuses.flat().filter((status) => status !== 200)).toEqual([]);
    // Every batch is all-or-nothing: the last one to commit wrote all 5 rows.
    const { rows } = await sql<{ label: string }>`select distinct label from counters`.execute(t.system.db);
    expect(rows).toHaveLength(1);
    console.log(`array form: ${CLIENTS * ROUNDS} batches in ${elapsed} ms`);
  });

  it(`answers all ${CLIENTS}×${ROUNDS} {keys, data} batches with 200`, async () => {
    const statuses = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        const seen: number[] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          seen.push((await t.request.patch('/items/counters').set(auth).send({ keys: shuffled(keys), data: { label: `keys ${client}`, round } })).status);
        }
        return seen;
      }),
    );
    expect(statuses.flat().filter((status) => status !== 200)).toEqual([]);
  });

  it(`answers ${CLIENTS} concurrent deletes of overlapping items 204 (all deleted) or 403 (one was gone already), never 500`, async () => {
    const created = await t.request.post('/items/counters').set(auth).send(Array.from({ length: 10 }, (_, n) => ({ label: `doomed ${n}`, round: 0 }))).expect(200);
    const doomed: number[] = created.body.data.map((item: { id: number }) => item.id);
    const bodies = Array.from({ length: CLIENTS }, () => shuffled(doomed).slice(0, 4));
    const statuses = (await Promise.all(bodies.map((body) => t.request.delete('/items/counters').set(auth).send(body)))).map((response) => response.status);
    expect(statuses.filter((status) => status !== 204 && status !== 403)).toEqual([]);
    expect(statuses).toContain(204);
    // Each batch is all-or-nothing, so what is gone is exactly the union of the batches answered 204.
    const deleted = new Set(bodies.filter((_, i) => statuses[i] === 204).flat());
    const { rows } = await sql<{ id: number }>`select id from counters where id in (${sql.join(doomed)})`.execute(t.system.db);
    expect(rows.map((row) => row.id).sort((a, b) => a - b)).toEqual(doomed.filter((id) => !deleted.has(id)));
  });
});

describe('concurrent manual-sort moves in one collection', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ DB_POOL_MAX: String(CLIENTS) });
  });
  afterAll(() => t.close());

  it(`answers ${CLIENTS} concurrent moves 204 and leaves positions 1…n without duplicates`, async () => {
    const auth = { Authorization: `Bearer ${await t.login()}` };
    await t.request.post('/collections').set(auth).send({ collection: 'slides', fields: [{ field: 'title', type: 'string' }, { field: 'position', type: 'integer' }] }).expect(200);
    await t.request.patch('/collections/slides').set(auth).send({ meta: { sort_field: 'position' } }).expect(200);
    const created = await t.request.post('/items/slides').set(auth).send(Array.from({ length: 12 }, (_, n) => ({ title: `slide ${n}` }))).expect(200);
    const ids: number[] = created.body.data.map((item: { id: number }) => item.id);
    const statuses = await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        const [item, to] = shuffled(ids);
        return (await t.request.post('/utils/sort/slides').set(auth).send({ item, to })).status;
      }),
    );
    expect(statuses.filter((status) => status !== 204)).toEqual([]);
    const { rows } = await sql<{ position: number }>`select position from slides order by position`.execute(t.system.db);
    expect(rows.map((row) => row.position)).toEqual(ids.map((_, n) => n + 1));
  });
});

describe('runTransaction', () => {
  let t: TestApp;
  let db: Kysely<any>;

  beforeAll(async () => {
    t = await createTestApp({ DB_POOL_MAX: '4' });
    db = t.system.db;
    await sql`create table lock_pair (id int primary key, n int not null)`.execute(db);
    await sql`insert into lock_pair values (1, 0), (2, 0)`.execute(db);
  });
  afterAll(() => t.close());

  /** Two transactions that lock rows 1 and 2 in opposite orders, both holding their first lock before taking the second. */
  async function collide(attempts: number): Promise<PromiseSettledResult<void>[]> {
    let arrived = 0;
    let release!: () => void;
    const bothHoldOne = new Promise<void>((resolve) => (release = resolve));
    let firstAttempts = 0;
    const writer = (first: number, second: number) =>
      runTransaction(
        db,
        async (trx) => {
          firstAttempts++;
          await sql`update lock_pair set n = n + 1 where id = ${first}`.execute(trx);
          if (firstAttempts <= 2 && ++arrived === 2) release();
          // Only the first meeting is staged; a rerun goes straight through.
          if (firstAttempts <= 2) await Promise.race([bothHoldOne, new Promise((resolve) => setTimeout(resolve, 2_000))]);
          await sql`update lock_pair set n = n + 1 where id = ${second}`.execute(trx);
        },
        attempts,
      );
    return Promise.allSettled([writer(1, 2), writer(2, 1)]);
  }

  it('reruns the deadlock victim, so both writers succeed', async () => {
    const results = await collide(4);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
    const { rows } = await sql<{ n: number }>`select n from lock_pair order by id`.execute(db);
    expect(rows).toEqual([{ n: 2 }, { n: 2 }]);
  });

  it('turns a deadlock that outlasts its attempts into TRANSACTION_CONFLICT (409)', async () => {
    const results = await collide(1);
    const rejected = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.reason).toBeInstanceOf(TransactionConflictError);
    expect(rejected[0]!.reason.status).toBe(409);
  });
});

describe('a write rerun after a deadlock', () => {
  let t: TestApp;
  let auth: { Authorization: string };

  beforeAll(async () => {
    t = await createTestApp({ DB_POOL_MAX: '6' });
    auth = { Authorization: `Bearer ${await t.login()}` };
    for (const collection of ['pages', 'page_log']) {
      await t.request.post('/collections').set(auth).send({ collection, fields: [{ field: 'title', type: 'string' }] }).expect(200);
    }
    await t.request.post('/items/pages').set(auth).send([{ title: 'one' }, { title: 'two' }]).expect(200);
    await sql`create table page_locks (id int primary key, n int not null)`.execute(t.system.db);
    await sql`insert into page_locks values (1, 0), (2, 0)`.execute(t.system.db);
  });
  afterAll(async () => {
    await extensionDatabase(t.context).close();
    await t.close();
  });

  it('starts its list of actions over: the rolled-back attempt announces nothing', async () => {
    const database = extensionDatabase(t.context);
    const { ItemsService } = createExtensionServices(t.context);
    let arrived = 0;
    let release!: () => void;
    const bothHoldOne = new Promise<void>((resolve) => (release = resolve));
    let attempts = 0;
    // Each update logs an item inside its transaction (its create action queued), then takes the two lock
    // rows in an order that depends on the page: the first two attempts meet and one is the deadlock victim.
    const offFilter = t.context.events.onFilter('pages.items.update', async (payload, meta) => {
      const staged = ++attempts <= 2;
      await new ItemsService('page_log', { knex: database.transactionHandle(meta.transaction!) }).createOne({ title: `attempt ${attempts} of page ${meta.keys[0]}` });
      const [first, second] = meta.keys[0] === 1 ? [1, 2] : [2, 1];
      await sql`update page_locks set n = n + 1 where id = ${first}`.execute(meta.transaction!.db);
      if (staged && ++arrived === 2) release();
      if (staged) await bothHoldOne;
      await sql`update page_locks set n = n + 1 where id = ${second}`.execute(meta.transaction!.db);
      return payload;
    });
    const announced: Array<string | number> = [];
    const offAction = t.context.events.onAction('page_log.items.create', (meta) => void announced.push(...meta.keys));
    try {
      const statuses = await Promise.all([1, 2].map(async (key) => (await t.request.patch(`/items/pages/${key}`).set(auth).send({ title: `page ${key}` })).status));
      expect(statuses).toEqual([200, 200]);
      expect(attempts).toBe(3);
      await t.context.events.idle();
      // Two log items were kept (the victim's first one rolled back); each announced once, none that is gone.
      const kept = (await t.system.db.selectFrom('page_log').select('id').orderBy('id').execute()).map((row) => row.id as number);
      expect(kept).toHaveLength(2);
      expect([...announced].sort((a, b) => Number(a) - Number(b))).toEqual(kept);
    } finally {
      offFilter();
      offAction();
    }
  });
});
