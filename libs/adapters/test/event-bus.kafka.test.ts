/**
 * Kafka adapter against a real broker: KAFKA_BROKERS (comma-separated) when set, otherwise a
 * testcontainers Kafka when a container runtime answers within a few seconds, otherwise skipped
 * with a printed reason.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventBusContract } from '@skald/ports/contract/event-bus.contract.ts';
import type { EventBus } from '@skald/ports';
import { createEventBus } from '../src/event-bus/index.ts';
import { decodeKafkaMessage } from '../src/event-bus/kafka/kafka-event-bus.ts';

const DETECT_TIMEOUT_MS = 5_000;
const KAFKA_IMAGE = 'confluentinc/cp-kafka:7.5.0';

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref()),
  ]);
}

/** A quick look for a runtime before asking testcontainers, whose own probing can be slow. */
function containerRuntimeLikely(): boolean {
  if (process.env['DOCKER_HOST']) return true;
  return ['/var/run/docker.sock', join(homedir(), '.docker/run/docker.sock'), `/run/user/${process.getuid?.() ?? 0}/podman/podman.sock`].some(
    (path) => existsSync(path),
  );
}

async function resolveBrokers(): Promise<{ brokers: string[] | null; stop: () => Promise<void> }> {
  const fromEnv = process.env['KAFKA_BROKERS'];
  if (fromEnv) return { brokers: fromEnv.split(',').map((broker) => broker.trim()), stop: async () => undefined };
  if (!containerRuntimeLikely()) return { brokers: null, stop: async () => undefined };
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await withTimeout(getContainerRuntimeClient(), DETECT_TIMEOUT_MS);
    const { KafkaContainer } = await import('@testcontainers/kafka');
    const container = await new KafkaContainer(KAFKA_IMAGE).withKraft().start();
    return {
      brokers: [`${container.getHost()}:${container.getMappedPort(9093)}`],
      stop: async () => void (await container.stop()),
    };
  } catch (error) {
    console.log(`kafka container unavailable: ${error instanceof Error ? error.message : String(error)}`);
    return { brokers: null, stop: async () => undefined };
  }
}

const kafka = await resolveBrokers();
afterAll(() => kafka.stop());

describe('kafka message decoding (no broker needed)', () => {
  it('restores id, key, headers and payload and strips the id header', () => {
    const decoded = decodeKafkaMessage('t', {
      key: Buffer.from('server-1'),
      value: Buffer.from('{"a":1}'),
      headers: { 'x-message-id': Buffer.from('m-1'), 'event-type': Buffer.from('x.v1') },
      offset: '7',
      timestamp: '0',
      attributes: 0,
    });
    expect(decoded).toEqual({ id: 'm-1', topic: 't', key: 'server-1', payload: { a: 1 }, headers: { 'event-type': 'x.v1' } });
  });
});

if (kafka.brokers === null) {
  console.log('skipped: no container runtime (and KAFKA_BROKERS not set)');
  describe.skip('EventBus contract: kafka (skipped: no container runtime)', () => {
    it('skipped: no container runtime', () => undefined);
  });
} else {
  const brokers = kafka.brokers;
  let counter = 0;
  eventBusContract(
    'kafka',
    async () => {
      const clientId = `skald-test-${process.pid}-${counter++}`;
      const open = (): Promise<EventBus> =>
        createEventBus({ kind: 'kafka', brokers, clientId, replicationFactor: 1 });
      const opened: EventBus[] = [await open()];
      return {
        adapter: opened[0]!,
        reopen: async () => {
          const bus = await open();
          opened.push(bus);
          return bus;
        },
        cleanup: async () => {
          for (const bus of opened) await bus.close();
        },
      };
    },
    { deliveryTimeoutMs: 45_000, testTimeoutMs: 120_000 },
  );
}
