import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { SummaryCounts } from './helpers/summary-reporter.ts';

/**
 * `npm test`: the API tests (unit and integration) and the browser tests (e2e) as two vitest runs at once.
 * The API files keep both cores busy on their own (measured: 91 % busy with two files at a time, most of it
 * module loading and our server's code), while a browser file mostly waits on its page (one used 0.7 of a
 * core), so one run after the other left a core idle for the whole browser half. Two runs, rather than one
 * vitest with three projects, because vitest runs projects together only when they share one `maxWorkers`,
 * and browser files need their own, lower one. With arguments (files, filters, flags) it is one plain vitest run.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
const config = path.join(root, 'tests/vitest.config.ts');

interface Run {
  name: string;
  projects: string[];
}

const RUNS: Run[] = [
  { name: 'api', projects: ['unit', 'integration', 'integration-own-process'] },
  { name: 'browser', projects: ['e2e'] },
];

/** Runs vitest with `args`, passing its output through a line at a time so the two runs' lines never mix mid-line. */
function runVitest(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, [vitest, 'run', '--config', config, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  createInterface({ input: child.stdout }).on('line', (line) => process.stdout.write(`${line}\n`));
  createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`${line}\n`));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

const extra = process.argv.slice(2);
if (extra.length > 0) process.exit(await runVitest(extra, process.env));

const folder = mkdtempSync(path.join(tmpdir(), 'tessera-suite-'));
try {
  const codes = await Promise.all(
    RUNS.map((run) => runVitest(run.projects.flatMap((project) => ['--project', project]), { ...process.env, TEST_SUMMARY_FILE: path.join(folder, `${run.name}.json`) })),
  );
  const total: SummaryCounts = { passed: 0, failed: 0, skipped: 0 };
  RUNS.forEach((run, index) => {
    let counts: SummaryCounts;
    try {
      counts = JSON.parse(readFileSync(path.join(folder, `${run.name}.json`), 'utf8')) as SummaryCounts;
    } catch {
      // A run that ended before its reporter wrote anything (a crash, a failed global setup) is one failure.
      counts = { passed: 0, failed: 1, skipped: 0 };
    }
    if (codes[index] !== 0 && counts.failed === 0) counts.failed = 1;
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
  });
  process.stdout.write(`\ntests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`);
  process.exitCode = total.failed > 0 ? 1 : 0;
} finally {
  rmSync(folder, { recursive: true, force: true });
}
