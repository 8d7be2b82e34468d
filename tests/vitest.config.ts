import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Files run at once. Vitest's default on a 2-core machine is one, but an API test file spends most of its
 * time waiting on PostgreSQL, Redis or servers it started, and every file has its own database (and Redis
 * namespace, taken from the database's name), so three share the machine without touching each other.
 */
const TEST_WORKERS = Number(process.env.TEST_WORKERS ?? 3);
// Browser files stay one at a time unless asked: two at once passed alone but failed the list's bulk-edit
// test once in a whole run on a loaded machine.
const BROWSER_WORKERS = Number(process.env.TEST_BROWSER_WORKERS ?? 1);

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
          include: ['tests/unit/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          root,
          maxWorkers: TEST_WORKERS,
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/helpers/global-setup.ts'],
          // graphql-ws must import the same `graphql` build as our code (vitest resolves the development one).
          server: { deps: { inline: ['graphql-ws'] } },
          // Limits are safety nets, sized for a 2-core machine running other work: waits inside tests are on conditions.
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll waits for conditions, not for a fast machine: 1 s (vitest's default) is too short on a busy 2-core box.
          expect: { poll: { timeout: 15_000 } },
        },
      },
      {
        test: {
          name: 'e2e',
          root,
          include: ['tests/e2e/**/*.test.ts'],
          // Builds the admin once (when stale) and prepares the template database.
          globalSetup: ['tests/e2e/global-setup.ts'],
          // After the API tests: each file runs a server and a Chromium.
          maxWorkers: BROWSER_WORKERS,
          sequence: { groupOrder: 1 },
          testTimeout: 150_000,
          hookTimeout: 180_000,
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
