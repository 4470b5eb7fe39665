import { defineConfig } from 'vitest/config';

// Browser end-to-end against the real all-in-one server (web/e2e/e2e.test.ts starts it itself).
export default defineConfig({
  root: import.meta.dirname,
  test: {
    environment: 'node',
    globalSetup: ['e2e/global-setup.ts'],
    include: ['e2e/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // e2e.test.ts (the long walkthrough, about 7 min) is the run's critical path; the other walks, each with
    // its own server and browser, run beside it in the second worker instead of after it.
    maxWorkers: 2,
  },
});
