/**
 * "PostgreSQL alone": how many times a second PostgreSQL answers the plain SQL a hand-written application
 * would send for a scenario (rows, not JSON; no HTTP, no permissions), measured with pgbench over the same
 * number of connections and on the same cores as the scenario. It is the ceiling the relative bar
 * refers to ("list_100: ≥ 60 % of what PostgreSQL alone does").
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** pgbench scripts per scenario; `:id` is a random article id. Writes are left out (pgbench has no comparable unit). */
export function plainStatements(articleIds: readonly number[]): Record<string, string> {
  const low = Math.min(...articleIds);
  const high = Math.max(...articleIds);
  return {
    read_one: `\\set id random(${low}, ${high})\nselect * from articles where id = :id;\n`,
    list_100: 'select * from articles order by published_on desc limit 100;\n',
    // Measured while the advised index on published_on exists (the scenario drops it after pgbench).
    list_100_indexed: 'select * from articles order by published_on desc limit 100;\n',
    filter: "select * from articles where status = 'published' and views > 500 order by id limit 100;\n",
    relational: 'select a.id, a.title, au.name from articles a left join authors au on au.id = a.author order by a.id limit 100;\n',
    aggregate: 'select status, count(*), avg(views) from articles group by status order by status;\n',
    search: "select * from articles where title ilike '%lantern%' or body ilike '%lantern%' or status ilike '%lantern%' order by id limit 100;\n",
  };
}

/** True when a pgbench binary is on the PATH. */
export function hasPgbench(): boolean {
  return spawnSync('pgbench', ['--version'], { encoding: 'utf8' }).status === 0;
}

/**
 * Transactions per second of `script` run by pgbench with prepared statements (what a careful application
 * does), `connections` clients on two threads, for `durationS` seconds.
 */
export function measurePostgresAlone(databaseUrl: string, script: string, connections: number, durationS: number): number {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'tessera-pgbench-'));
  try {
    const file = path.join(folder, 'scenario.sql');
    writeFileSync(file, script);
    const args = ['-n', '-M', 'prepared', '-f', file, '-c', String(connections), '-j', '2', '-T', String(durationS), databaseUrl];
    const run = spawnSync('pgbench', args, { encoding: 'utf8' });
    const tps = /tps = ([\d.]+)/.exec(run.stdout)?.[1];
    if (run.status !== 0 || !tps) throw new Error(`pgbench failed (exit ${run.status}):\n${run.stderr}${run.stdout}`);
    return Number(tps);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
