import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Runs the fixtures below with the project's summary reporter (tests/unit/helpers/summary-reporter.test.ts).
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: [process.env.REPORTER_FIXTURE ?? '*.fixture.ts'],
    reporters: [fileURLToPath(new URL('../../../helpers/summary-reporter.ts', import.meta.url))],
  },
});
