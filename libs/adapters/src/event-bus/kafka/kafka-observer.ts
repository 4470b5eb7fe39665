/**
 * The Kafka bus's observers (EventBus.observe). kafkajs has no group-less consumer (no assign()), so an
 * observer is a consumer in a group of its own (a fresh random id: one member, every partition) that
 * never commits (autoCommit false, no commitOffsets call). A group with no committed offset is removed
 * by the coordinator as soon as its last member leaves, so observers leave nothing behind, and no
 * committed offset exists to grow or to expire.
 *
 * Positions are kept here: the end offsets of every partition are read (ListOffsets) before the consumer
 * joins, and on every join (the first one, and any rejoin after a lost session) each assigned partition
 * is sought to the next offset to deliver. So the observer starts exactly at the newest message of
 * observe()'s start, never at kafkajs's "latest" of some later moment, and a rejoin continues where it
 * was. A message below the position (a batch fetched before a seek took effect) is skipped.
 */
import { randomUUID } from 'node:crypto';
import type { Admin, Kafka, KafkaMessage } from 'kafkajs';
import type { BusMessage, ObserveOptions, Subscription } from '@skald/ports';
import { deliverToObserver } from '../observation.ts';

export interface KafkaObserverSettings {
  readonly clientId: string;
  readonly maxBytesPerPartition: number;
  readonly sessionTimeoutMs?: number;
  readonly decode: (topic: string, raw: KafkaMessage) => Omit<BusMessage, 'attempt'>;
}

/** Long-poll bound of an idle fetch: how long stop() may wait for the fetch in flight. */
const OBSERVER_MAX_WAIT_MS = 500;

export async function startKafkaObserver(
  kafka: Pick<Kafka, 'consumer'>,
  admin: Pick<Admin, 'fetchTopicOffsets'>,
  options: ObserveOptions,
  settings: KafkaObserverSettings,
  onStopped: () => void,
): Promise<Subscription> {
  const topics = [...new Set(options.topics)];
  const next = new Map<string, Map<number, bigint>>();
  for (const topic of topics) {
    const ends = await admin.fetchTopicOffsets(topic);
    next.set(topic, new Map(ends.map((end) => [end.partition, BigInt(end.high)])));
  }
  const consumer = kafka.consumer({
    groupId: `${settings.clientId}.observer.${randomUUID()}`,
    allowAutoTopicCreation: false,
    maxBytesPerPartition: settings.maxBytesPerPartition,
    maxWaitTimeInMs: OBSERVER_MAX_WAIT_MS,
    ...(settings.sessionTimeoutMs !== undefined ? { sessionTimeout: settings.sessionTimeoutMs } : {}),
  });
  const controller = new AbortController();
  let joined!: () => void;
  let failed!: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    joined = resolve;
    failed = reject;
  });
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    // Synchronous in kafkajs's join, before its first fetch: the seeks apply to that fetch.
    for (const [topic, partitions] of Object.entries(payload.memberAssignment)) {
      const positions = next.get(topic) ?? new Map<number, bigint>();
      next.set(topic, positions);
      for (const partition of partitions) {
        // A partition added after the start holds only later messages: from its first.
        const offset = positions.get(partition) ?? 0n;
        positions.set(partition, offset);
        consumer.seek({ topic, partition, offset: offset.toString() });
      }
    }
    joined();
  });
  consumer.on(consumer.events.CRASH, ({ payload }) => failed(payload.error));

  const stopConsumer = async (): Promise<void> => {
    controller.abort();
    await consumer.disconnect().catch(() => undefined);
  };
  try {
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: false });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: 1,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        const positions = next.get(batch.topic) ?? new Map<number, bigint>();
        next.set(batch.topic, positions);
        for (const raw of batch.messages) {
          if (!isRunning() || isStale() || controller.signal.aborted) break;
          const offset = BigInt(raw.offset);
          // resolveOffset moves kafkajs's local fetch position only: nothing is committed (autoCommit false).
          if (offset >= (positions.get(batch.partition) ?? 0n)) {
            if (options.filter?.(raw.key?.toString() ?? '', batch.topic) !== false) await deliverToObserver(settings.decode(batch.topic, raw), options);
            positions.set(batch.partition, offset + 1n);
          }
          resolveOffset(raw.offset);
          await heartbeat();
        }
      },
    });
    await ready;
  } catch (error) {
    await stopConsumer();
    throw error;
  }
  let stopping: Promise<void> | null = null;
  return {
    stop() {
      stopping ??= stopConsumer().finally(onStopped);
      return stopping;
    },
  };
}
