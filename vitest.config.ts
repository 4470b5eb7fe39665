import { defineConfig } from 'vitest/config';

// The backend's two tiers, one project each (docs/TESTING.md "Test tiers"): `unit` is every `*.test.ts`
// that is not `*.integration.test.ts`, run with a guard that fails a file starting a child process or
// connecting to anything its own process does not listen on; `integration` is the rest (Redis, MariaDB,
// the mock Kafka cluster, child processes, Java and Lua). `npx vitest run <file>` runs a file in its tier;
// `--project unit` or `--project integration` runs one tier. Suites that need Kafka, MongoDB or MinIO
// print "skipped: no container runtime" themselves when none is reachable.
const backend = ['libs/*/test/**/', 'services/*/test/**/', 'gateway/test/**/', 'test/**/'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // Suites share Redis db numbers and ports; file-level parallelism is kept, test-level is not.
    sequence: { concurrent: false },
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: backend.map((dir) => `${dir}*.test.ts`),
          exclude: backend.map((dir) => `${dir}*.integration.test.ts`),
          setupFiles: ['test/support/unit-tier-guard.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: backend.map((dir) => `${dir}*.integration.test.ts`),
        },
      },
    ],
  },
});
