import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const config = fileURLToPath(new URL('./reporter-fixtures/vitest.config.ts', import.meta.url));
const vitest = fileURLToPath(new URL('../../../node_modules/vitest/vitest.mjs', import.meta.url));

/** Runs one fixture file in its own vitest process; returns the reporter's line and the exit code. */
function run(fixture: string): Promise<{ line: string | undefined; code: number | null }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [vitest, 'run', '--config', config], { env: { ...process.env, REPORTER_FIXTURE: fixture }, timeout: 120_000 }, (_error, stdout) => {
      resolve({ line: stdout.split('\n').find((candidate) => candidate.startsWith('tests: ')), code: child.exitCode });
    });
  });
}

describe('summary reporter', () => {
  it.each([
    ['green.fixture.ts', 'tests: 1 passed, 0 failed, 1 skipped', 0],
    ['before-all-fails.fixture.ts', 'tests: 1 passed, 1 failed, 2 skipped', 1],
    ['after-all-fails.fixture.ts', 'tests: 1 passed, 1 failed, 0 skipped', 1],
    ['module-after-all-fails.fixture.ts', 'tests: 1 passed, 1 failed, 0 skipped', 1],
    ['load-fails.fixture.ts', 'tests: 0 passed, 1 failed, 0 skipped', 1],
  ])('%s → %s', { timeout: 120_000 }, async (fixture, line, code) => {
    expect(await run(fixture)).toEqual({ line, code });
  });
});
