import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * API files at once. Each has its own database (and Redis namespace, taken from the database's name), so
 * files share the machine without touching each other. Two keep a 2-core machine busy (measured on a
 * sample of 40 files: 77 s with two, 80 s with three). The browser files run after them (docs/testing.md:
 * beside them, with the API files' CPU taken, their waits ran past their limits).
 */
const TEST_WORKERS = Number(process.env.TEST_WORKERS ?? 2);
// Browser files two at a time: one file alone keeps 0.7 of a core busy (measured), mostly waiting on its page.
const BROWSER_WORKERS = Number(process.env.TEST_BROWSER_WORKERS ?? 2);

/** The integration project's settings. */
const integration = {
  root,
  maxWorkers: TEST_WORKERS,
  globalSetup: ['tests/helpers/global-setup.ts'],
  // graphql-ws must import the same `graphql` build as our code (vitest resolves the development one).
  server: { deps: { inline: ['graphql-ws'] } },
  // Limits are safety nets, sized for a 2-core machine running other work: waits inside tests are on conditions.
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // expect.poll waits for conditions, not for a fast machine: 1 s (vitest's default) is too short on a busy 2-core box.
  expect: { poll: { timeout: 15_000 } },
};

export default defineConfig({
  test: {
    root,
    reporters: ['default', './tests/helpers/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          root,
          maxWorkers: TEST_WORKERS,
          isolate: false,
          include: ['tests/unit/**/*.test.ts'],
        },
      },
      // Each worker runs file after file in one module graph: loading our server's modules again for every file
      // was over half of a worker's CPU (a 40-file sample took 105 s isolated, 80 s not).
      { test: { ...integration, name: 'integration', isolate: false, include: ['tests/integration/**/*.test.ts'] } },
      {
        test: {
          name: 'e2e',
          root,
          // As the API files: a worker runs file after file in one module graph instead of loading the server again per file.
          isolate: false,
          include: ['tests/e2e/**/*.test.ts'],
          // Builds the admin once (when stale) and prepares the template database.
          globalSetup: ['tests/e2e/global-setup.ts'],
          // After the API tests: each file runs a server and a Chromium.
          maxWorkers: BROWSER_WORKERS,
          sequence: { groupOrder: 1 },
          testTimeout: 300_000,
          hookTimeout: 180_000,
          // Waits are for conditions; the limits are safety nets for a shared machine.
          expect: { poll: { timeout: 60_000 } },
        },
      },
    ],
  },
});
