import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, spawnCli } from '../../helpers/cli.ts';

afterAll(() => killSpawned());

/** The `rssMb` figures of the "server started" log line (MB after each start phase, `peak`: maxRSS so far). */
async function startAndMeasure(dir: string): Promise<{ rssMb: Record<string, number>; cmdline: string[]; stop: () => Promise<number | null> }> {
  const server = spawnCli(['start'], { cwd: dir, env: { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ADMIN_PASSWORD: 'ops-password-1' } });
  const [line] = await server.waitFor(/\{[^\n]*"msg":"server started"\}/, 120_000);
  const cmdline = readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').split('\0');
  return { rssMb: (JSON.parse(line) as { rssMb: Record<string, number> }).rssMb, cmdline, stop: () => server.stop('SIGTERM') };
}

// Before: first start peaked at 1.2 GB and idled at 640 MB; a reopen reached 750 MB while migrating
// (docs/operations.md, "Memory on the embedded database"). The bounds leave room for a busy machine.
describe('memory of tessera start on the embedded database', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-memory-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs with the baseline WebAssembly compiler and stays under 500 MB while creating and reopening the database', { timeout: 240_000 }, async () => {
    const first = await startAndMeasure(dir);
    expect(await first.stop()).toBe(0);
    expect(first.cmdline).toContain('--liftoff-only');
    expect(first.rssMb.peak).toBeLessThan(500);

    const second = await startAndMeasure(dir);
    expect(await second.stop()).toBe(0);
    expect(second.rssMb.peak).toBeLessThan(400);
    expect(second.rssMb.listening).toBeLessThan(350);
  });
});
