/**
 * The one test kit (a test-only library: services and the gateway import it from their tests only).
 * Test tiers are named by file suffix: `*.test.ts` unit and route tests (Fastify inject over the
 * embedded adapters), `*.integration.test.ts` tests that need a real external component (Redis,
 * MariaDB, a child process), `*.contract.ts` port suites every adapter runs.
 */
export * from './test-deps.ts';
export * from './test-service.ts';
export * from './identity-seeder.ts';
export * from './wait-for.ts';
export * from './embedded-env.ts';
export * from './listening-line.ts';
export * from './closed-port.ts';
export * from './event-stream.ts';
export * from './test-redis.ts';
