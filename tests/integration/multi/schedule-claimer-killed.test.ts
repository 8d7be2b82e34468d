import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { killSpawned } from '../../helpers/cli.ts';
import { eventually } from '../../helpers/eventually.ts';
import { createMigratedDatabase } from '../../helpers/test-database.ts';
import { ADMIN, createFlow, ok, startInstance, startJobWorker } from './instances.ts';

afterAll(() => killSpawned());

it('a schedule tick whose run is under way when the server that claimed it is SIGKILLed still runs, once', { timeout: 300_000 }, async () => {
  const began = Date.now();
  const database = await createMigratedDatabase();
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-tick-kill-'));
  // Answers no /tick call until released: the tick's run is held in its `request` operation.
  const held: ServerResponse[] = [];
  const calls: string[] = [];
  const receiver = createServer((req, res) => {
    calls.push(req.url!);
    held.push(res);
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    const env = { DB_URL: database.url, REDIS_URL: 'redis://127.0.0.1:6379', SECRET: 'schedule-claimer-killed-secret-0123456789abcdef', OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' };
    const [server] = await Promise.all([startInstance(dir, { ...env, JOBS_WORKER: 'off' }), startJobWorker(dir, env)]);
    const started = Date.now();
    const token = (await ok(server.url, 'POST', '/auth/login', '', ADMIN)).access_token as string;
    const flow = await createFlow(server.url, token, { name: 'every second', trigger: 'schedule', accountability: 'all', options: { cron: '* * * * * *' } }, {
      type: 'request',
      options: { method: 'GET', url: `${receiverUrl}/tick?at={{ $trigger.$schedule }}` },
    });

    // The first tick's run is under way; the only instance that ticks (and so claimed it) dies.
    await eventually(async () => expect(calls.length).toBeGreaterThan(0), 30_000, 50);
    const tick = new URL(calls[0]!, receiverUrl).searchParams.get('at');
    await server.cli.stop('SIGKILL');
    const killedAt = Date.now();
    for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    receiver.on('request', () => held.splice(0).forEach((res) => res.end('{"ok":true}')));

    // The run finishes and is logged, once: it was a durable job, not work in the dead server's memory.
    const runs = async () =>
      (
        await db.query<{ tick: string }>(
          `select r.data->'trigger'->>'$schedule' as tick from tessera_activity a join tessera_revisions r on r.activity = a.id
            where a.collection = 'tessera_flows' and a.action = 'run' and a.item = $1`,
          [flow],
        )
      ).rows.map((row) => row.tick);
    await eventually(async () => expect(await runs()).toContain(tick), 30_000, 100);
    expect((await runs()).filter((run) => run === tick)).toHaveLength(1);
    console.log(`schedule claimer killed: server and worker up after ${started - began} ms, the first tick's run reached the receiver ${killedAt - started} ms later, and was logged ${Date.now() - killedAt} ms after the kill`);
  } finally {
    await db.end();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    await killSpawned();
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  }
});
