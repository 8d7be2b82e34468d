import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { ConnectionInUse } from '../../server/database/close-pool.ts';

/** A closing step slower than this is reported at the end of the run (with the connections it had to end). */
const SLOW_STEP_MS = 10_000;

/** The file this run's workers append close reports to; the summary reporter names it before workers start. */
function reportFile(): string {
  return path.join(tmpdir(), `tessera-test-closes-${process.env.TESSERA_TEST_RUN ?? process.pid}.log`);
}

/** Names this run's report file for the workers it starts (called by the summary reporter, in the main process). */
export function startCloseReports(): void {
  process.env.TESSERA_TEST_RUN ??= String(process.pid);
  rmSync(reportFile(), { force: true });
}

/** The reports of this run, removed once read. */
export function takeCloseReports(): string[] {
  try {
    const lines = readFileSync(reportFile(), 'utf8').split('\n').filter(Boolean);
    rmSync(reportFile(), { force: true });
    return lines;
  } catch {
    return [];
  }
}

/**
 * Runs the steps of closing a test app in order, timing each. A slow step, or a database close that had to
 * end connections still in use (something never released them), is written to stderr and to the run's report,
 * which the summary reporter prints last: a close that once hung in CI then says which step and which
 * connection, without failing the run for it (the database close is bounded by SHUTDOWN_TIMEOUT).
 */
export async function closeInSteps(label: string, steps: ReadonlyArray<readonly [string, () => unknown]>): Promise<void> {
  for (const [step, run] of steps) {
    const started = performance.now();
    const result = await run();
    const ms = Math.round(performance.now() - started);
    const inUse = Array.isArray(result) ? (result as ConnectionInUse[]) : [];
    if (ms < SLOW_STEP_MS && inUse.length === 0) continue;
    const line = `${label} (${process.env.VITEST_WORKER_ID ? `worker ${process.env.VITEST_WORKER_ID}, ` : ''}${testFile()}): closing step "${step}" took ${ms} ms${inUse.length > 0 ? `; connections in use ended: ${JSON.stringify(inUse)}` : ''}`;
    process.stderr.write(`${line}\n`);
    appendFileSync(reportFile(), `${line}\n`);
  }
}

/** The test file closing. */
function testFile(): string {
  const { testPath } = expect.getState();
  return testPath ? path.relative(process.cwd(), testPath) : 'a test file';
}
