import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned } from '../../helpers/cli.ts';
import { sampleValue } from '../../helpers/prometheus-text.ts';
import { createMigratedDatabase } from '../../helpers/test-database.ts';
import { openSocket } from '../realtime/socket-client.ts';
import { startInstance, type Instance } from './instances.ts';

afterAll(() => killSpawned());

const TOKEN = 'per-instance-metrics-token-0123456789';

async function scrape(instance: Instance): Promise<string> {
  const response = await fetch(`${instance.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return response.text();
}

const pings = (text: string) => sampleValue(text, 'tessera_http_requests_total', { method: 'GET', route: '/server/ping', status: '200' }) ?? 0;

describe('metrics of two instances on one database and Redis', () => {
  it("each instance reports its own requests, connections and process; the shared queue reads the same on both", { timeout: 120_000 }, async () => {
    const database = await createMigratedDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-metrics-multi-'));
    try {
      const env = { DB_URL: database.url, REDIS_URL: 'redis://127.0.0.1:6379', METRICS_ENABLED: 'true', METRICS_TOKENS: TOKEN, SECRET: 'metrics-per-instance-secret-0123456789abcdef' };
      const first = await startInstance(dir, env);
      const second = await startInstance(dir, env);
      const [firstBefore, secondBefore] = [pings(await scrape(first)), pings(await scrape(second))];

      for (let i = 0; i < 3; i++) expect((await fetch(`${first.url}/server/ping`)).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await fetch(`${second.url}/server/ping`)).status).toBe(200);
      const socket = await openSocket(`${second.url.replace('http', 'ws')}/websocket`);

      const [a, b] = [await scrape(first), await scrape(second)];
      expect(pings(a) - firstBefore).toBe(3);
      expect(pings(b) - secondBefore).toBe(5);
      expect(sampleValue(a, 'tessera_realtime_connections')).toBe(0);
      expect(sampleValue(b, 'tessera_realtime_connections')).toBe(1);
      const pid = (text: string) => (text.match(/tessera_instance_info\{[^}]*pid="(\d+)"/) ?? [])[1];
      expect(pid(a)).toBe(String(first.cli.child.pid));
      expect(pid(b)).toBe(String(second.cli.child.pid));

      // Queue gauges come from the shared database: a job queued once shows on both instances (run_at in an
      // hour, so neither instance's job worker takes it meanwhile).
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query(`select graphile_worker.add_job('per-instance-probe', '{}'::json, run_at => now() + interval '1 hour')`);
      } finally {
        await client.end();
      }
      const [queuedA, queuedB] = [await scrape(first), await scrape(second)];
      expect(sampleValue(queuedA, 'tessera_jobs_queued', { task: 'per-instance-probe' })).toBe(1);
      expect(sampleValue(queuedB, 'tessera_jobs_queued', { task: 'per-instance-probe' })).toBe(1);
      console.log(`metrics per instance: first served ${pings(a)} pings (pid ${pid(a)}), second ${pings(b)} (pid ${pid(b)}), websocket connections 0 and 1`);

      await socket.close();
      expect(await first.cli.stop('SIGTERM')).toBe(0);
      expect(await second.cli.stop('SIGTERM')).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    }
  });
});
