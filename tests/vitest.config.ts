import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  test: {
    root,
    reporters: ['default', './tests/helpers/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          root,
          include: ['tests/unit/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          root,
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
          // One browser at a time: each file runs a server and a Chromium.
          fileParallelism: false,
          testTimeout: 150_000,
          hookTimeout: 180_000,
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
