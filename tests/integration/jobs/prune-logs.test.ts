import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JobWorker } from '../../../server/jobs/job-queue.ts';
import { PRUNE_TASK, pruneLogs } from '../../../server/jobs/prune-logs.ts';
import { startWorker } from '../../../server/webhooks/webhook-worker.ts';
import { eventually } from '../../helpers/eventually.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createFlow } from '../flows/flow-fixture.ts';

let t: TestApp;
let token: string;
let worker: JobWorker | undefined;
let flow: string;
let webhook: number;
const auth = () => ({ Authorization: `Bearer ${token}` });
const db = () => t.context.database.kysely();
const ago = (ms: number) => new Date(Date.now() - ms);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  t = await createTestApp({ RETENTION_SCHEDULE_TICKS: '1h', RETENTION_WEBHOOK_DELIVERIES: '7d', RETENTION_FLOW_RUNS: '7d' });
  token = await t.login();
  await t.request.post('/collections').set(auth()).send({ collection: 'notes', fields: [{ field: 'body', type: 'string' }] }).expect(200);
  flow = (await createFlow(t, token, { name: 'logged', trigger: 'webhook', options: { method: 'POST' }, accountability: 'all' }, [{ key: 'log', type: 'log', options: { message: 'hi' } }])).id;
  webhook = (await t.request.post('/webhooks').set(auth()).send({ name: 'hook', method: 'POST', status: 'inactive', url: 'https://example.com/hook', actions: ['create'], collections: ['notes'] }).expect(200)).body.data.id;
});

afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

/** Writes one row of each log at `at`, as the schedule, the delivery task and the flow engine write them. */
async function seed(at: Date, label: string): Promise<void> {
  await sql`insert into tessera_automation.flow_ticks (flow, tick) values (${flow}, ${at})`.execute(db());
  await sql`insert into tessera_automation.schedule_ticks (schedule, tick) values ('extension-hook:0', ${at})`.execute(db());
  await sql`insert into tessera_automation.webhook_deliveries (webhook, job_id, event, collection, attempt, max_attempts, status, duration_ms, date_created)
            values (${webhook}, ${label}, 'items.create', 'notes', 1, 5, 'success', 3, ${at})`.execute(db());
  const run = await sql<{ id: number }>`insert into tessera_activity (action, collection, item, "timestamp", comment) values ('run', 'tessera_flows', ${flow}, ${at}, ${label}) returning id`.execute(db());
  await sql`insert into tessera_revisions (activity, collection, item, data) values (${run.rows[0]!.id}, 'tessera_flows', ${flow}, ${JSON.stringify({ status: 'resolved', label })}::jsonb)`.execute(db());
  // Not a run log: stays whatever its age.
  await sql`insert into tessera_activity (action, collection, item, "timestamp", comment) values ('update', 'tessera_flows', ${flow}, ${at}, ${label})`.execute(db());
}

async function remaining() {
  const ticks = await sql<{ tick: Date }>`select tick from tessera_automation.flow_ticks where flow = ${flow} order by tick`.execute(db());
  const scheduleTicks = await sql<{ tick: Date }>`select tick from tessera_automation.schedule_ticks order by tick`.execute(db());
  const deliveries = await sql<{ job_id: string }>`select job_id from tessera_automation.webhook_deliveries where webhook = ${webhook} order by id`.execute(db());
  const activity = await sql<{ action: string; comment: string }>`select action, comment from tessera_activity where collection = 'tessera_flows' and item = ${flow} and comment is not null order by id`.execute(db());
  const revisions = await sql<{ label: string }>`select data->>'label' as label from tessera_revisions where item = ${flow} and data ? 'label' order by id`.execute(db());
  return {
    ticks: ticks.rows.length,
    scheduleTicks: scheduleTicks.rows.length,
    deliveries: deliveries.rows.map((row) => row.job_id),
    activity: activity.rows.map((row) => `${row.action}:${row.comment}`),
    revisions: revisions.rows.map((row) => row.label),
  };
}

it('a retention of 0 keeps every row', async () => {
  await seed(ago(400 * DAY), 'ancient');
  expect(await pruneLogs(db(), { scheduleTicksMs: 0, webhookDeliveriesMs: 0, flowRunsMs: 0 })).toEqual({ scheduleTicks: 0, webhookDeliveries: 0, flowRuns: 0 });
  expect((await remaining()).deliveries).toEqual(['ancient']);
});

it('one run of the hourly prune job removes the rows older than their retention and keeps the newer ones', async () => {
  await seed(ago(2 * HOUR), 'hours-old');
  await seed(ago(8 * DAY), 'week-old');
  await seed(ago(60_000), 'recent');
  worker = await startWorker(t.context, { pollIntervalMs: 100 });
  // The worker registered the hourly schedule…
  await eventually(async () => {
    const known = await sql<{ identifier: string }>`select identifier from graphile_worker._private_known_crontabs`.execute(db());
    expect(known.rows.map((row) => row.identifier)).toContain(PRUNE_TASK);
  });
  // …and runs its task: one job, as the schedule enqueues it.
  await sql`select graphile_worker.add_job(${PRUNE_TASK}, '{}'::json, max_attempts => 1)`.execute(db());
  await eventually(async () => {
    const jobs = await sql<{ count: string }>`select count(*) from graphile_worker._private_jobs j join graphile_worker._private_tasks k on k.id = j.task_id where k.identifier = ${PRUNE_TASK}`.execute(db());
    expect(Number(jobs.rows[0]!.count)).toBe(0);
  });
  const left = await remaining();
  // Ticks are kept 1 h: only the recent one; deliveries and runs 7 d: the 2-hour-old and recent ones.
  expect(left.ticks).toBe(1);
  expect(left.scheduleTicks).toBe(1);
  expect(left.deliveries).toEqual(['hours-old', 'recent']);
  expect(left.activity).toEqual(['update:ancient', 'run:hours-old', 'update:hours-old', 'update:week-old', 'run:recent', 'update:recent']);
  expect(left.revisions).toEqual(['hours-old', 'recent']);
});

it('a backlog larger than one batch is removed completely', async () => {
  await sql`insert into tessera_automation.flow_ticks (flow, tick) select ${flow}, now() - interval '2 days' - (n * interval '1 second') from generate_series(1, 12000) n`.execute(db());
  const counts = await pruneLogs(db(), t.context.config.retention);
  expect(counts.scheduleTicks).toBe(12000);
  expect((await remaining()).ticks).toBe(1);
});
