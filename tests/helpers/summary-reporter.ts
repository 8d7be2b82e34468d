import type { Reporter, TestModule } from 'vitest/node';
import { startCloseReports, takeCloseReports } from './close-report.ts';

export interface SummaryCounts {
  passed: number;
  failed: number;
  skipped: number;
}

/**
 * Tests by state, plus one failure for every error outside a test: a throwing beforeAll/afterAll (vitest
 * records it on its suite or module, and marks the tests of a failed beforeAll skipped), a file that failed
 * to load, and unhandled errors. Without those a red run could print "N passed, 0 failed".
 */
export function countResults(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): SummaryCounts {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const module of testModules) {
    let moduleFailures = 0;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') counts.passed += 1;
      else if (state === 'failed') moduleFailures += 1;
      else counts.skipped += 1;
    }
    moduleFailures += module.errors().length;
    for (const suite of module.children.allSuites()) moduleFailures += suite.errors().length;
    // A failed file always counts, even when vitest reports no error we could attribute.
    if (moduleFailures === 0 && module.state() === 'failed') moduleFailures = 1;
    counts.failed += moduleFailures;
  }
  counts.failed += unhandledErrors.length;
  return counts;
}

/**
 * Prints the slow or forced closes of test apps, then one plain closing line, `tests: N passed, N failed, N skipped`, after vitest's own summary,
 * so CI logs carry a runner-neutral result line.
 */
export default class SummaryReporter implements Reporter {
  onInit(): void {
    startCloseReports();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const counts = countResults(testModules, unhandledErrors);
    // Slow or forced closes of test apps (tests/helpers/close-report.ts): not failures, but what to look at.
    const closes = takeCloseReports();
    if (closes.length > 0) process.stdout.write(`\nslow or forced closes of test apps (${closes.length}):\n${closes.map((line) => `  ${line}`).join('\n')}\n`);
    process.stdout.write(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
