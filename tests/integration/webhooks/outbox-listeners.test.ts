import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowListens } from '../../../server/flows/enqueue-flow-runs.ts';
import { startOutboxRelay, type OutboxRelay } from '../../../server/jobs/outbox-relay.ts';
import { webhookListens } from '../../../server/webhooks/enqueue-deliveries.ts';
import { eventually } from '../../helpers/eventually.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
let token: string;
let relay: OutboxRelay | null = null;
const auth = () => ({ Authorization: `Bearer ${token}` });
const db = (): Kysely<any> => t.context.database.kysely();

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'silent' });
  token = await t.login();
  for (const collection of ['heard', 'quiet']) await t.request.post('/collections').set(auth()).send({ collection, fields: [{ field: 'body', type: 'string' }] }).expect(200);
});

afterAll(async () => {
  await relay?.stop();
  await t?.close();
});

const ROLLBACK = new Error('rolled back on purpose');

/** Runs `work` in a transaction that is then rolled back. */
async function rolledBack(work: (trx: Kysely<any>) => Promise<void>): Promise<void> {
  await expect(
    db()
      .transaction()
      .execute(async (trx) => {
        await work(trx);
        throw ROLLBACK;
      }),
  ).rejects.toBe(ROLLBACK);
}

type Listener = { webhook: { status?: string; actions: string; collections: string } } | { flow: { status?: string; trigger?: string; options: unknown } };

const LISTENERS: Listener[] = [
  { webhook: { actions: 'create', collections: 'a' } },
  { webhook: { actions: 'create, update', collections: 'a, b' } },
  { webhook: { actions: 'delete', collections: 'b,c' } },
  { webhook: { status: 'inactive', actions: 'create,update,delete', collections: 'a,b,c' } },
  { flow: { options: { type: 'action', scope: ['items.create'], collections: ['a'] } } },
  { flow: { options: { scope: ['items.update', 'items.delete'], collections: [] } } },
  { flow: { options: { type: 'action', scope: 'items.create, items.delete', collections: 'b, c' } } },
  { flow: { options: { type: 'action', scope: 'items.update', collections: '' } } },
  { flow: { options: { type: 'action', scope: ['items.create'], collections: null } } },
  { flow: { options: { type: 'action', scope: ['items.create'] } } },
  { flow: { options: { type: 'filter', scope: ['items.create'], collections: ['a'] } } },
  { flow: { status: 'inactive', options: { type: 'action', scope: ['items.create'], collections: ['a'] } } },
  { flow: { trigger: 'manual', options: { collections: ['a'] } } },
  { flow: { options: { type: 'action', scope: 7, collections: ['a'] } } },
];

describe('the outbox records a write exactly when a webhook or action flow listens', () => {
  it('record_item_events decides as the conditions the relay makes jobs with (webhookListens, flowListens)', async () => {
    for (const listener of LISTENERS) {
      await rolledBack(async (trx) => {
        if ('webhook' in listener) {
          const { status = 'active', actions, collections } = listener.webhook;
          await sql`insert into tessera_webhooks (name, url, status, actions, collections) values ('w', 'http://127.0.0.1/', ${status}, ${actions}, ${collections})`.execute(trx);
        } else {
          const { status = 'active', trigger = 'event', options } = listener.flow;
          await sql`insert into tessera_flows (name, status, trigger, options) values ('f', ${status}, ${trigger}, ${JSON.stringify(options)}::jsonb)`.execute(trx);
        }
        for (const collection of ['a', 'b', 'c']) {
          for (const action of ['create', 'update', 'delete']) {
            const target = { collection: sql`${collection}::text`, action: sql`${action}::text` };
            const { rows: expected } = await sql<{ listens: boolean }>`select exists (select 1 from tessera_webhooks w where ${webhookListens(target.collection, target.action)})
                or exists (select 1 from tessera_flows f where ${flowListens(target.collection, target.action)}) as listens`.execute(trx);
            const { rows: recorded } = await sql<{ recorded: number }>`select tessera_automation.record_item_events(${collection}, ${action}, ${JSON.stringify([{ keys: [1], payload: null }])}::jsonb, null) as recorded`.execute(trx);
            expect({ listener, collection, action, recorded: recorded[0]!.recorded }).toEqual({ listener, collection, action, recorded: expected[0]!.listens ? 1 : 0 });
          }
        }
      });
    }
  });

  it('a webhook created on another connection is seen by the next write, with no cache to wait for', async () => {
    const before = await sql<{ count: string }>`select count(*) from tessera_automation.outbox`.execute(db());
    await t.request.post('/items/heard').set(auth()).send({ body: 'before' }).expect(200);
    await sql`insert into tessera_webhooks (name, url, status, actions, collections) values ('other instance', 'http://127.0.0.1/', 'active', 'create', 'heard')`.execute(db());
    await t.request.post('/items/heard').set(auth()).send({ body: 'after' }).expect(200);
    const { rows } = await sql<{ body: string }>`select payload->>'body' as body from tessera_automation.outbox order by id`.execute(db());
    expect(Number(before.rows[0]!.count)).toBe(0);
    expect(rows.map((row) => row.body)).toEqual(['after']);
    await sql`delete from tessera_webhooks where name = 'other instance'`.execute(db());
    await sql`delete from tessera_automation.outbox`.execute(db());
  });

  it('writes nobody listens to do not wake the relay; a listened write does', async () => {
    // No poll during the test: every relay run comes from a write.
    await t.request.post('/webhooks').set(auth()).send({ name: 'heard', method: 'POST', status: 'active', actions: ['create'], collections: ['heard'], url: 'http://127.0.0.1:9/heard' }).expect(200);
    relay = startOutboxRelay(t.context, { pollMs: 3_600_000 });
    const outbox = async () => Number((await sql<{ count: string }>`select count(*) from tessera_automation.outbox`.execute(db())).rows[0]!.count);
    await t.request.post('/items/heard').set(auth()).send({ body: 'first' }).expect(200);
    await eventually(async () => expect(await outbox()).toBe(0));
    const runsBefore = relay.runs;

    const ids: number[] = [];
    for (let i = 0; i < 20; i++) ids.push((await t.request.post('/items/quiet').set(auth()).send({ body: `quiet ${i}` }).expect(200)).body.data.id);
    await t.request.post('/items/quiet').set(auth()).send([{ body: 'batch 1' }, { body: 'batch 2' }]).expect(200);
    for (const id of ids.slice(0, 10)) await t.request.patch(`/items/quiet/${id}`).set(auth()).send({ body: 'changed' }).expect(200);
    await t.request.delete(`/items/quiet/${ids[0]}`).set(auth()).expect(204);
    // The listened write comes last: once its event has been moved, any run the quiet writes caused has happened.
    await t.request.post('/items/heard').set(auth()).send({ body: 'last' }).expect(200);
    await eventually(async () => expect(await outbox()).toBe(0));
    expect(relay.runs - runsBefore).toBeGreaterThanOrEqual(1);
    expect(relay.runs - runsBefore).toBeLessThanOrEqual(2);
  });

  it("the relay's poll moves events no write here announced (another process's), after finding the outbox non-empty", async () => {
    await relay?.stop();
    relay = startOutboxRelay(t.context, { pollMs: 20 });
    const outbox = async () => Number((await sql<{ count: string }>`select count(*) from tessera_automation.outbox`.execute(db())).rows[0]!.count);
    await eventually(async () => expect(relay!.runs).toBeGreaterThanOrEqual(1));
    const runsBefore = relay.runs;
    await sql`insert into tessera_automation.outbox (collection, action, keys, payload) values ('heard', 'create', '[1]'::jsonb, '{}'::jsonb)`.execute(db());
    await eventually(async () => expect(await outbox()).toBe(0));
    // One relay statement moved it (or the start's own run, if it had not begun before the insert); polls of an empty outbox run none.
    expect(relay.runs - runsBefore).toBeLessThanOrEqual(1);
  });
});
