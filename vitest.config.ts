import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Node's compile cache for every process of the run (vitest's forks, the worker threads they start, the children
// they spawn; inherited through the environment): a block store's seal worker or the player store's second
// connection started in a test then loads its modules compiled and type-stripped once, not again at each start
// (~0.13 s of CPU to ~0.03 s; the unit tier starts ~140 of them). In the checkout (node_modules/.cache), as
// `npm test` sets it for all its steps (scripts/test.mjs): Node keys the cache by each module's path, so in a
// shared temp folder every fresh clone added ~40 MB that nothing removed. An explicit setting is kept (empty: none).
process.env['NODE_COMPILE_CACHE'] ??= join(import.meta.dirname, 'node_modules', '.cache', 'node-compile-cache');

// The backend's two tiers, one project each (docs/TESTING.md "Test tiers"): `unit` is every `*.test.ts`
// that is not `*.integration.test.ts`, run with a guard that fails a file starting a child process or
// connecting to anything its own process does not listen on; `integration` is the rest (Redis, MariaDB,
// the mock Kafka cluster, child processes, Java and Lua). `npx vitest run <file>` runs a file in its tier;
// `--project unit --project unit-isolated` or `--project integration` runs one tier. Suites that need Kafka, MongoDB or MinIO
// print "skipped: no container runtime" themselves when none is reachable.
const backend = ['libs/*/test/**/', 'services/*/test/**/', 'gateway/test/**/', 'test/**/'];
// Unit files that observe their process or a module's state from its start: the id generator's clock
// never goes back, and the checkpointer's test counts the process's threads.
const needFreshProcess = ['services/ingestion/test/uuidv7.test.ts', 'libs/adapters/test/wal-checkpointer.test.ts'];

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
          exclude: [...backend.map((dir) => `${dir}*.integration.test.ts`), ...needFreshProcess],
          setupFiles: ['test/support/unit-tier-guard.ts'],
          // A worker runs many files on the modules it has loaded (Fastify, the adapters, the services),
          // instead of a new process loading them again for each of 139 files: half the tier's CPU time.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-isolated',
          include: needFreshProcess,
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
