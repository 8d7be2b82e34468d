import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UNHEARD_REFRESH_MS } from '../../../server/redis/change-notices.ts';
import { killSpawned } from '../../helpers/cli.ts';
import { eventually } from '../../helpers/eventually.ts';
import { freePort } from '../../helpers/own-servers.ts';
import { createMigratedDatabase } from '../../helpers/test-database.ts';
import { ADMIN, call, createFlow, ok, startInstance } from './instances.ts';

afterAll(() => killSpawned());

const SECRET = 'flows-across-instances-secret-0123456789abcdef';
/** Slack on top of a documented bound, for a loaded 2-core machine. */
const SLACK_MS = 4_000;

/**
 * Two `tessera start` processes on one database (and one Redis, or none reachable), no standalone worker:
 * flows written through the first act on the second, and a schedule outlives the instance it was written through.
 */
async function flowsActAcrossInstances(redisUrl: string, boundMs: number): Promise<void> {
  const database = await createMigratedDatabase();
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-flows-multi-'));
  try {
    const env = { DB_URL: database.url, REDIS_URL: redisUrl, SECRET };
    const first = await startInstance(dir, env);
    const second = await startInstance(dir, env);
    const token = (await ok(first.url, 'POST', '/auth/login', '', ADMIN)).access_token as string;
    for (const collection of ['notes', 'ticks']) await ok(first.url, 'POST', '/collections', token, { collection, fields: [{ field: 'title', type: 'string' }] });
    // The second instance knows the collections (schema sync; not what is tested here).
    await eventually(async () => expect((await call(second.url, 'GET', '/items/ticks', token)).status).toBe(200), 15_000, 100);

    // A validation flow written through the first instance guards writes arriving through the second.
    await createFlow(first.url, token, { name: 'no spam', trigger: 'event', options: { type: 'filter', scope: ['items.create'], collections: ['notes'] } }, {
      type: 'condition',
      options: { filter: { $trigger: { payload: { title: { _ncontains: 'spam' } } } } },
    });
    const written = Date.now();
    const refused = await eventually(async () => {
      const response = await call(second.url, 'POST', '/items/notes', token, { title: `spam ${Date.now()}` });
      expect(response.status).toBe(400);
      return response.body;
    }, boundMs + SLACK_MS, 50);
    const filterMs = Date.now() - written;
    expect(refused.errors[0].message).toBe('The condition was not met.');
    expect(filterMs).toBeLessThan(boundMs + SLACK_MS);

    // A schedule written through the first instance keeps ticking on the second once the first has stopped.
    const schedule = await createFlow(first.url, token, { name: 'every second', trigger: 'schedule', options: { cron: '* * * * * *' } }, {
      type: 'item-create',
      options: { collection: 'ticks', payload: { title: '{{ $trigger.$schedule }}' }, permissions: '$full' },
    });
    const scheduled = Date.now();
    await eventually(async () => expect((await ok(second.url, 'GET', '/items/ticks', token)).length).toBeGreaterThan(0), boundMs + SLACK_MS, 100);
    expect(await first.cli.stop('SIGTERM')).toBe(0);
    const stoppedAt = Date.now();
    const after = await eventually(async () => {
      const ticks = (await ok(second.url, 'GET', '/items/ticks?limit=-1&sort=title', token)) as Array<{ title: string }>;
      const later = ticks.filter((tick) => Date.parse(tick.title) > stoppedAt);
      expect(later.length).toBeGreaterThanOrEqual(2);
      return ticks;
    }, boundMs + SLACK_MS, 100);
    // Each tick ran once although both instances fired it while both were running.
    expect(new Set(after.map((tick) => tick.title)).size).toBe(after.length);
    console.log(`flows across instances (redis ${redisUrl}): filter acted on the other instance after ${filterMs} ms; schedule ticked on after the owner stopped (${stoppedAt - scheduled} ms after it was written)`);
    await ok(second.url, 'PATCH', `/flows/${schedule}`, token, { status: 'inactive' });
    expect(await second.cli.stop('SIGTERM')).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  }
}

describe('flows on several instances', () => {
  it('with Redis: a filter and a schedule flow written through one instance act on the other at once, and the schedule survives its owner', { timeout: 120_000 }, async () => {
    await flowsActAcrossInstances('redis://127.0.0.1:6379', 1_000);
  });

  it('with Redis down: the same within the periodic re-read', { timeout: 120_000 }, async () => {
    // Nothing listens on a free port: Redis is down for both instances from the start.
    await flowsActAcrossInstances(`redis://127.0.0.1:${await freePort()}`, UNHEARD_REFRESH_MS);
  });
});
