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
    maxWorkers: 1,
  },
});
