import type { Counters } from '@skald/ports';
import { MemoryCounters } from './memory-counters.ts';
import { RedisCounters } from './redis-counters.ts';

export type CountersConfig = { kind: 'memory' } | { kind: 'redis'; url: string; prefix?: string };

/** Async like the other factories so the launcher can treat every port the same way. */
export async function createCounters(config: CountersConfig): Promise<Counters> {
  switch (config.kind) {
    case 'memory':
      return new MemoryCounters();
    case 'redis':
      return new RedisCounters({ url: config.url, ...(config.prefix === undefined ? {} : { prefix: config.prefix }) });
  }
}

export { MemoryCounters, RedisCounters };
