/**
 * Counters factory. The Redis adapter (ioredis) is imported only when chosen, so the all-in-one
 * process with memory counters never loads it (idle memory).
 */
import type { Counters } from '@skald/ports';
import { MemoryCounters } from './memory-counters.ts';

export type CountersConfig = { kind: 'memory' } | { kind: 'redis'; url: string; prefix?: string };

/** Async like the other factories so the launcher can treat every port the same way. */
export async function createCounters(config: CountersConfig): Promise<Counters> {
  switch (config.kind) {
    case 'memory':
      return new MemoryCounters();
    case 'redis': {
      const { RedisCounters } = await import('./redis-counters.ts');
      return new RedisCounters({ url: config.url, ...(config.prefix === undefined ? {} : { prefix: config.prefix }) });
    }
  }
}

export { MemoryCounters };
// Type only: a value re-export would load ioredis for every importer of @skald/adapters.
export type { RedisCounters } from './redis-counters.ts';
