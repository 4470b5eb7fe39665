import { defineConfig } from 'vitest/config';

// One run for the whole workspace. Suites that need Kafka, MongoDB or MinIO print
// "skipped: no container runtime" themselves when none is reachable.
export default defineConfig({
  test: {
    include: [
      'libs/*/test/**/*.test.ts',
      'services/*/test/**/*.test.ts',
      'gateway/test/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // Suites share Redis db numbers and ports; file-level parallelism is kept, test-level is not.
    sequence: { concurrent: false },
    reporters: ['default'],
  },
});
