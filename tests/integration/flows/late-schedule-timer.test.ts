import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../helpers/eventually.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createFlow } from './flow-fixture.ts';

/**
 * docs/automation.md: a schedule tick is keyed by the cron's occurrence the timer fired for, never by the clock,
 * so a timer firing late claims the same key as every other instance's and the tick runs once (issue 37 item 2).
 * Here the timer is made over half a second late by blocking this process's event loop across the mark: keyed
 * by the clock rounded to the second (as before), it claimed the next second, a tick no other instance claims.
 */
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t?.close());

const PERIOD_MS = 5_000;

it('a timer that fires 800 ms late claims the occurrence it was due for', { timeout: 60_000 }, async () => {
  const { id } = await createFlow(t, token, { name: 'every 5 s', trigger: 'schedule', options: { cron: '*/5 * * * * *' } }, []);
  const ticks = async () =>
    (await sql<{ ms: string }>`select (extract(epoch from tick) * 1000)::bigint::text as ms from tessera_automation.flow_ticks where flow = ${id} order by tick`.execute(t.context.database.kysely())).rows.map((row) => Number(row.ms));
  // The first tick claimed proves the timer running.
  const [first] = await eventually(async () => {
    const claimed = await ticks();
    expect(claimed.length).toBeGreaterThan(0);
    return claimed;
  }, 20_000, 50);
  expect(first! % PERIOD_MS).toBe(0);

  // A coming mark: block the event loop from just before it until 800 ms after it (a later mark when a busy
  // machine woke this test too close to one).
  let due = first! + PERIOD_MS;
  for (;;) {
    while (due - Date.now() < 300) due += PERIOD_MS;
    await new Promise((resolve) => setTimeout(resolve, due - 150 - Date.now()));
    if (due - Date.now() > 50) break;
  }
  while (Date.now() < due + 800) {
    // Busy: the timer due at the mark cannot fire until this loop ends.
  }

  const claimed = await eventually(async () => {
    const rows = await ticks();
    expect(rows.some((tick) => tick > due - PERIOD_MS)).toBe(true);
    return rows;
  }, 10_000, 50);
  // Around the blocked mark, the mark itself is the one tick claimed (keyed by the clock: due + 1 s).
  expect(claimed.filter((tick) => tick > due - PERIOD_MS && tick < due + PERIOD_MS)).toEqual([due]);
  expect(claimed.every((tick) => tick % PERIOD_MS === 0)).toBe(true);
  await t.request.patch(`/flows/${id}`).set({ Authorization: `Bearer ${token}` }).send({ status: 'inactive' }).expect(200);
});
