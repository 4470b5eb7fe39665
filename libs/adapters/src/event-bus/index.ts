/**
 * Event bus adapters. `createEventBus(config)` picks one by `config.kind`:
 * - memory: durable in-process journal on SQLite (all-in-one),
 * - redis: Redis Streams with consumer groups (small distributed installs),
 * - kafka: kafkajs (distributed).
 * The Redis and Kafka clients are loaded lazily so all-in-one never loads them.
 */
import type { EventBus } from '@skald/ports';
import type { EventBusConfig } from './config.ts';
import { MemoryEventBus } from './memory/memory-event-bus.ts';

export type { EventBusConfig, KafkaEventBusConfig, MemoryEventBusConfig, RedisEventBusConfig } from './config.ts';
export { MemoryEventBus } from './memory/memory-event-bus.ts';

export async function createEventBus(config: EventBusConfig): Promise<EventBus> {
  switch (config.kind) {
    case 'memory':
      return new MemoryEventBus(config);
    case 'redis': {
      const { RedisEventBus } = await import('./redis/redis-event-bus.ts');
      return RedisEventBus.connect(config);
    }
    case 'kafka': {
      const { KafkaEventBus } = await import('./kafka/kafka-event-bus.ts');
      return KafkaEventBus.connect(config);
    }
  }
}
