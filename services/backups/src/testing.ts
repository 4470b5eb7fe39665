/** Internals for benchmarks and other packages' tests (never production code): the factory with its options, the dump engine. */
export { createBackupsServiceWith } from './backups-service.ts';
export type { BackupsServiceOptions } from './backups-service.ts';
export { dumpToObject, DEFAULT_DUMP_LIMITS } from './domain/dump/dump-to-object.ts';
export type { DumpLimits, DumpSource } from './domain/dump/dump-to-object.ts';
