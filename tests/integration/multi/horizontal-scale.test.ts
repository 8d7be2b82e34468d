import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { killSpawned } from '../../helpers/cli.ts';
import { eventually } from '../../helpers/eventually.ts';
import { createMigratedDatabase } from '../../helpers/test-database.ts';
import { openSocket } from '../realtime/socket-client.ts';
import { startReceiver } from '../webhooks/receiver.ts';
import { ADMIN, call, createFlow, ok, startInstance, startJobWorker } from './instances.ts';
import { runLoad, type Write } from './round-robin-load.ts';

afterAll(() => killSpawned());

/** Writes of the run: a few hundred, enough for every instance to take part before and after the kill. */
const TOTAL = 240;
/** What the realtime subscriber was sent for one item: the event and the item's key. */
const eventKey = (event: string, id: unknown) => `${event}:${id}`;
/** The write id a webhook body or flow trigger carries in its payload. */
const writeOf = (payload: { cw?: string; uw?: string } | null) => payload?.cw ?? payload?.uw;

/** How many times each value occurs. */
function tally(values: Array<string | undefined>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

it('3 servers and 2 job workers on one PostgreSQL and Redis, one server killed mid-load: no acknowledged write, delivery, flow run or tick lost or doubled', { timeout: 360_000 }, async () => {
  const phases: string[] = [];
  let phaseStart = Date.now();
  const phase = (name: string) => {
    phases.push(`${name} ${((Date.now() - phaseStart) / 1000).toFixed(1)} s`);
    // As it goes: a run that times out still tells how far it got.
    console.log(`horizontal scale: ${phases.at(-1)}`);
    phaseStart = Date.now();
  };
  const database = await createMigratedDatabase();
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-scale-'));
  const receiver = await startReceiver();
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    const shared = {
      DB_URL: database.url,
      DB_POOL_MAX: '4',
      REDIS_URL: 'redis://127.0.0.1:6379',
      SECRET: 'horizontal-scale-secret-0123456789abcdef-0123',
      OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
      CACHE_ENABLED: 'true',
      CACHE_STORE: 'redis',
    };
    const server = () => startInstance(dir, { ...shared, JOBS_WORKER: 'off' });
    // The first alone: a checkout whose admin is not built yet builds it once, not three times at once.
    const a = await server();
    const [b, c] = await Promise.all([server(), server(), startJobWorker(dir, shared), startJobWorker(dir, shared)]);
    const servers = [a, b, c];
    phase('start');

    const token = (await ok(a.url, 'POST', '/auth/login', '', ADMIN)).access_token as string;
    await ok(a.url, 'POST', '/collections', token, { collection: 'notes', fields: [{ field: 'title', type: 'string' }, { field: 'cw', type: 'string' }, { field: 'uw', type: 'string' }] });
    await ok(a.url, 'POST', '/collections', token, { collection: 'ticks', fields: [{ field: 'tick', type: 'string' }] });
    for (const { url } of servers) await eventually(async () => expect((await call(url, 'GET', '/items/notes', token)).status).toBe(200), 15_000, 100);

    await ok(a.url, 'POST', '/webhooks', token, { name: 'notes', url: `${receiver.url}/hook`, actions: ['create', 'update'], collections: ['notes'], data: true });
    const action = await createFlow(b.url, token, { name: 'log notes', trigger: 'event', accountability: 'all', options: { type: 'action', scope: ['items.create', 'items.update'], collections: ['notes'] } }, {
      type: 'log',
      options: { message: 'note written' },
    });
    const schedule = await createFlow(c.url, token, { name: 'every second', trigger: 'schedule', options: { cron: '* * * * * *' } }, {
      type: 'item-create',
      options: { collection: 'ticks', payload: { tick: '{{ $trigger.$schedule }}' }, permissions: '$full' },
    });

    // A realtime subscriber on b (which survives), hearing writes made through every instance.
    const socket = await openSocket(`${b.url.replace('http', 'ws')}/websocket`);
    socket.send({ type: 'auth', access_token: token });
    await socket.next((message) => message.type === 'auth' && message.status === 'ok');
    const heard: string[] = [];
    socket.ws.on('message', (raw) => {
      const message = JSON.parse(raw.toString());
      if (message.type !== 'subscription' || message.uid !== 'notes' || message.event === 'init') return;
      for (const item of message.data as Array<{ id: number }>) heard.push(eventKey(message.event, item.id));
    });
    socket.send({ type: 'subscribe', collection: 'notes', query: { fields: ['id', 'cw', 'uw'] }, uid: 'notes' });
    await socket.next((message) => message.uid === 'notes' && message.event === 'init');

    phase('setup');
    let killedAt = 0;
    let killed: Promise<number | null> = Promise.resolve(null);
    const load = await runLoad({
      targets: servers.map((server, index) => ({ name: 'abc'[index]!, url: server.url })),
      token,
      collection: 'notes',
      total: TOTAL,
      lanes: 6,
      intervalMs: 15,
      midway: () => {
        killedAt = Date.now();
        killed = c.cli.stop('SIGKILL');
      },
    });
    await killed;
    phase('load');
    const acked = load.writes.filter((write) => write.status === 200);
    const unanswered = load.writes.filter((write) => write.status !== 200);
    // Only the killed instance failed to answer, and only by dropping the connection: never a 4xx/5xx.
    expect(unanswered.filter((write) => write.via !== 'c' || write.status !== null)).toEqual([]);
    expect(load.dropped).toEqual(['c']);
    expect(acked.filter((write) => write.via === 'c').length).toBeGreaterThan(0);
    // Every read through another instance right after an acknowledged write showed it, cache hits included.
    expect(load.staleReads).toEqual([]);
    expect(load.cacheHits).toBeGreaterThan(0);

    // Every acknowledged write is in the database; writes left unanswered by the kill may or may not be.
    const rows = (await db.query<{ id: number; cw: string; uw: string | null }>('select id, cw, uw from notes order by id')).rows;
    const byId = new Map(rows.map((row) => [row.id, row]));
    const inDatabase = (write: Write) => rows.some((row) => (write.kind === 'create' ? row.cw : row.uw) === write.w);
    expect(acked.filter((write) => !inDatabase(write))).toEqual([]);
    expect(acked.filter((write) => write.kind === 'update').every((write) => byId.get(write.id!)?.uw === write.w)).toBe(true);
    const committed = load.writes.filter(inDatabase).map((write) => write.w);
    const committedEvents = rows.flatMap((row) => [eventKey('create', row.id), ...(row.uw ? [eventKey('update', row.id)] : [])]);

    // Each committed write's webhook delivery and flow run arrive: wait for all of them, then for an empty
    // outbox and job queue (nothing left that could deliver again), then for a sentinel write's delivery,
    // run and realtime event, which come after all of those.
    const deliveries = () => receiver.received.filter((call) => call.path === '/hook').map((call) => writeOf(call.body.payload));
    const runs = async () =>
      (
        await db.query<{ payload: { cw?: string; uw?: string } }>(
          `select r.data->'trigger'->'payload' as payload from tessera_activity a join tessera_revisions r on r.activity = a.id
            where a.collection = 'tessera_flows' and a.action = 'run' and a.item = $1`,
          [action],
        )
      ).rows.map((row) => writeOf(row.payload));
    await eventually(async () => expect(new Set(deliveries()).size).toBe(committed.length), 60_000, 100);
    await eventually(async () => expect(new Set(await runs()).size).toBe(committed.length), 60_000, 100);
    await eventually(async () => expect(acked.filter((write) => !heard.includes(eventKey(write.kind, write.id)))).toEqual([]), 30_000, 100);
    await eventually(async () => {
      const { rows: queued } = await db.query(`select (select count(*) from tessera_automation.outbox) + (select count(*) from graphile_worker._private_jobs j
          join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier in ('tessera_webhook', 'tessera_flow_run')) as pending`);
      expect(Number(queued[0].pending)).toBe(0);
    }, 30_000, 100);
    phase('deliveries');
    const sentinel = await ok(a.url, 'POST', '/items/notes', token, { title: 'sentinel', cw: 'sentinel' });
    await eventually(async () => expect(deliveries()).toContain('sentinel'), 30_000, 100);
    await eventually(async () => expect(await runs()).toContain('sentinel'), 30_000, 100);
    await eventually(async () => expect(heard).toContain(eventKey('create', sentinel.id)), 30_000, 100);

    // A delivery is sent again only after an attempt that failed (logged): none should have.
    const failedAttempts = (await db.query(`select job_id, error, duration_ms from tessera_automation.webhook_deliveries where status <> 'success'`)).rows;
    expect(failedAttempts).toEqual([]);
    const expected = new Map([...committed, 'sentinel'].map((w) => [w, 1]));
    expect(tally(deliveries())).toEqual(expected);
    expect(tally(await runs())).toEqual(expected);
    // Realtime: every acknowledged write (through b, a, and c before it was killed) reached b's subscriber, once;
    // a write the kill left unanswered may have been announced or not.
    const heardCounts = tally(heard);
    expect([...heardCounts.values()].every((count) => count === 1)).toBe(true);
    for (const write of acked) expect(heardCounts.has(eventKey(write.kind, write.id))).toBe(true);
    expect([...heardCounts.keys()].every((key) => [...committedEvents, eventKey('create', sentinel.id)].includes(key))).toBe(true);

    // A cached read on either surviving instance after the last write shows every write, the second from the cache.
    const final = (await db.query('select id, cw, uw from notes order by id')).rows;
    const list = `/items/notes?limit=-1&sort=id&fields=id,cw,uw`;
    expect((await call(a.url, 'GET', list, token)).body.data).toEqual(final);
    const cached = await call(b.url, 'GET', list, token);
    expect(cached.headers.get('x-cache')).toBe('HIT');
    expect(cached.body.data).toEqual(final);

    // Schedule ticks: each claimed once across the instances, each claimed tick run, and ticking went on after the kill.
    // The flow stays active until the ticks claimed so far have run: a tick's job finding its flow inactive runs nothing.
    const claimed = (await db.query<{ tick: Date }>('select tick from tessera_automation.flow_ticks where flow = $1', [schedule])).rows.map((row) => row.tick.toISOString());
    await eventually(async () => {
      const written = (await db.query<{ tick: string }>('select tick from ticks')).rows.map((row) => row.tick);
      expect(claimed.filter((tick) => !written.includes(tick))).toEqual([]);
    }, 30_000, 100);
    await ok(a.url, 'PATCH', `/flows/${schedule}`, token, { status: 'inactive' });
    const ticks = (await db.query<{ tick: string }>('select tick from ticks')).rows.map((row) => row.tick);
    expect(new Set(ticks).size).toBe(ticks.length);
    expect(ticks.filter((tick) => Date.parse(tick) > killedAt).length).toBeGreaterThanOrEqual(2);

    phase('checks');
    await socket.close();
    const byInstance = Object.fromEntries(['a', 'b', 'c'].map((name) => [name, acked.filter((write) => write.via === name).length]));
    console.log(
      `horizontal scale: ${load.writes.length} writes, ${acked.length} acknowledged (${JSON.stringify(byInstance)}), ${unanswered.length} cut off by the kill, ` +
        `${committed.length} committed; ${committed.length + 1} deliveries and flow runs each once; ${heard.length} realtime events; ${load.cacheHits} cache hits; ${ticks.length} ticks; ${phases.join(', ')}`,
    );
  } finally {
    await db.end();
    await receiver.close();
    await killSpawned();
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  }
});
