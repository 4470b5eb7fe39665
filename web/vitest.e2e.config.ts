import { defineConfig } from 'vitest/config';

// Browser end-to-end against the real all-in-one server (web/e2e/e2e.test.ts starts it itself).
export default defineConfig({
  root: import.meta.dirname,
  test: {
    environment: 'node',
    globalSetup: ['e2e/global-setup.ts'],
    // A failed test writes a screenshot and a report of its pages to test-output/e2e/failures/.
    setupFiles: ['e2e/failure-capture-setup.ts'],
    include: ['e2e/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Two walks at a time (each file its own all-in-one server, data folder and browser): the tier takes about
    // what e2e.test.ts takes alone instead of the sum of every file. The one failure seen this way was a defect
    // of the app, not of the walk: a tab whose refused renewal crossed a new sign-in wiped the new token
    // (web/src/app/tokenRenewal.ts now keeps it; web/test/session-renewal.test.ts).
    maxWorkers: 2,
  },
});
