/**
 * Kafka adapter against brokers. Two runs of the one contract suite:
 * - a real Kafka: KAFKA_BROKERS (comma-separated) when set, otherwise a testcontainers Kafka when a
 *   container runtime answers within a few seconds, otherwise skipped with a printed reason;
 * - librdkafka's mock cluster (three brokers, through Debian's kcat; skipped with "kcat missing"
 *   without it), with KAFKA_TOPIC_PROVISIONING=external since the mock takes no topic admin requests.
 * The mock proves the adapter's protocol use (acks -1 produce, fetch, groups, manual offset commits,
 * rebalances); retention, compaction, replication and failover are real-Kafka properties.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventBusContract } from '@skald/ports/contract/event-bus.contract.ts';
import { KAFKA_MOCK_SETTINGS, startKafkaMockCluster } from './support/kafka-mock-cluster.ts';
import type { EventBus } from '@skald/ports';
import { createEventBus } from '../src/event-bus/index.ts';
import { MAX_HANDLER_BATCH, PoisonMessageError } from '@skald/ports';
import type { BusMessage } from '@skald/ports';
import type { ConfigEntries, DescribeConfigResponse, IResourceConfig, ITopicConfig } from 'kafkajs';
import {
  decodeKafkaMessage,
  encodeMessage,
  ensureKafkaTopics,
  HISTORY_TOPIC_CONFIG,
  processBatch,
} from '../src/event-bus/kafka/kafka-event-bus.ts';
import type { BatchPayload, TopicAdmin } from '../src/event-bus/kafka/kafka-event-bus.ts';
import { startKafkaObserver } from '../src/event-bus/kafka/kafka-observer.ts';

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
const mock = await startKafkaMockCluster();
afterAll(() => mock.cluster?.stop());

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

/** A fake eachBatch payload that records what the adapter resolves and commits. */
function fakeBatch(ids: string[], options: { stopAfter?: number } = {}) {
  const resolved: string[] = [];
  const commits: string[] = [];
  let handled = 0;
  const payload: BatchPayload = {
    batch: {
      topic: 't',
      partition: 3,
      highWatermark: String(100 + ids.length),
      messages: ids.map((id, i) => {
        const encoded = encodeMessage(id, 'k', { 'event-type': 'x.v1' }, JSON.stringify({ i }));
        return {
          key: Buffer.from(encoded.key),
          value: Buffer.from(encoded.value),
          headers: encoded.headers,
          offset: String(100 + i),
          timestamp: '0',
          attributes: 0,
        };
      }),
      isEmpty: () => ids.length === 0,
      firstOffset: () => '100',
      lastOffset: () => String(99 + ids.length),
      offsetLag: () => '0',
      offsetLagLow: () => '0',
    },
    resolveOffset: (offset) => void resolved.push(offset),
    heartbeat: async () => void handled++,
    commitOffsetsIfNecessary: async (offsets) => {
      for (const topic of offsets?.topics ?? []) for (const p of topic.partitions) commits.push(`${topic.topic}/${p.partition}@${p.offset}`);
    },
    isRunning: () => options.stopAfter === undefined || handled < options.stopAfter,
    isStale: () => false,
  };
  return { payload, resolved, commits };
}

describe('kafka batch processing (no broker needed)', () => {
  it('resolves and commits only after handlers succeed, retrying in place', async () => {
    const { payload, resolved, commits } = fakeBatch(['a', 'b', 'c']);
    const seen: string[] = [];
    let failed = false;
    await processBatch(payload, {
      group: 'g', maxAttempts: 3, retryDelayMs: 1, signal: new AbortController().signal,
      sendDeadLetter: async () => expect.unreachable(),
      handler: async (m: BusMessage) => {
        seen.push(`${m.id}#${m.attempt}`);
        if (m.id === 'b' && !failed) {
          failed = true;
          throw new Error('transient');
        }
      },
    });
    expect(seen).toEqual(['a#1', 'b#1', 'b#2', 'c#1']);
    expect(resolved).toEqual(['100', '101', '102']);
    expect(commits).toEqual(['t/3@103']);
  });

  it('hands a batch handler slices of at most MAX_HANDLER_BATCH, one by one where a slice failed, committing in order', async () => {
    const ids = Array.from({ length: 150 }, (_, i) => `m${i}`);
    const { payload, resolved, commits } = fakeBatch(ids);
    const slices: string[][] = [];
    const singles: string[] = [];
    await processBatch(payload, {
      group: 'g', maxAttempts: 3, retryDelayMs: 1, signal: new AbortController().signal,
      sendDeadLetter: async () => expect.unreachable(),
      handler: async (m) => void singles.push(m.id),
      batchHandler: async (messages) => {
        slices.push(messages.map((m) => m.id));
        // The second slice fails as a whole: its messages go one by one.
        if (messages[0]!.id === ids[MAX_HANDLER_BATCH]) throw new Error('one of them failed');
      },
    });
    expect(slices.map((slice) => slice.length)).toEqual([MAX_HANDLER_BATCH, MAX_HANDLER_BATCH, 150 - 2 * MAX_HANDLER_BATCH]);
    expect(slices.flat()).toEqual(ids);
    expect(singles).toEqual(ids.slice(MAX_HANDLER_BATCH, 2 * MAX_HANDLER_BATCH));
    // A slice resolves its last offset; the failed one each of its own, in order.
    expect(resolved).toEqual([
      String(100 + MAX_HANDLER_BATCH - 1),
      ...ids.slice(MAX_HANDLER_BATCH, 2 * MAX_HANDLER_BATCH).map((_, i) => String(100 + MAX_HANDLER_BATCH + i)),
      String(100 + 149),
    ]);
    expect(commits).toEqual([`t/3@${100 + 150}`]);
  });

  it('produces poison messages to the DLQ before resolving them', async () => {
    const { payload, resolved, commits } = fakeBatch(['bad', 'good']);
    const dead: { topic: string; headers: Record<string, string> }[] = [];
    await processBatch(payload, {
      group: 'g', maxAttempts: 3, retryDelayMs: 1, signal: new AbortController().signal,
      sendDeadLetter: async (topic, message) => void dead.push({ topic, headers: message.headers }),
      handler: async (m) => {
        if (m.id === 'bad') throw new PoisonMessageError('invalid schema');
      },
    });
    expect(dead).toHaveLength(1);
    expect(dead[0]!.topic).toBe('t.dlq');
    expect(dead[0]!.headers).toMatchObject({
      'x-original-topic': 't', 'x-message-id': 'bad', 'event-type': 'x.v1',
      'x-dead-letter-reason': expect.stringContaining('invalid schema'),
    });
    expect(resolved).toEqual(['100', '101']);
    expect(commits).toEqual(['t/3@102']);
  });

  it('when stopped mid-batch, commits what finished and nothing after', async () => {
    const { payload, resolved, commits } = fakeBatch(['a', 'b', 'c', 'd'], { stopAfter: 2 });
    await processBatch(payload, {
      group: 'g', maxAttempts: 3, retryDelayMs: 1, signal: new AbortController().signal,
      sendDeadLetter: async () => undefined, handler: async () => undefined,
    });
    expect(resolved).toEqual(['100', '101']);
    expect(commits).toEqual(['t/3@102']);
  });

  it('leaves a message that is still failing at stop uncommitted', async () => {
    const { payload, resolved, commits } = fakeBatch(['a', 'b']);
    const controller = new AbortController();
    await processBatch(payload, {
      group: 'g', maxAttempts: 5, retryDelayMs: 50, signal: controller.signal,
      sendDeadLetter: async () => expect.unreachable(),
      handler: async (m) => {
        if (m.id === 'b') {
          controller.abort();
          throw new Error('down');
        }
      },
    });
    expect(resolved).toEqual(['100']);
    expect(commits).toEqual(['t/3@101']);
  });
});

/** A fake admin holding topic-level overrides (configSource 1) per topic, recording what is sent. */
function fakeAdmin(existing: Record<string, Record<string, string>> = {}, cluster: { controller: number | null } = { controller: 1 }) {
  const overrides = new Map(Object.entries(existing).map(([topic, entries]) => [topic, new Map(Object.entries(entries))]));
  const created: ITopicConfig[] = [];
  const altered: IResourceConfig[] = [];
  const entry = (configName: string, configValue: string, configSource: 1 | 5): ConfigEntries => ({
    configName, configValue, configSource, isDefault: configSource === 5, isSensitive: false, readOnly: false, configSynonyms: [],
  });
  const admin: TopicAdmin = {
    describeCluster: async () => ({ brokers: [1, 2, 3].map((nodeId) => ({ nodeId, host: 'b', port: 9092 })), controller: cluster.controller, clusterId: 'c' }),
    listTopics: async () => [...overrides.keys()],
    fetchTopicMetadata: async ({ topics } = { topics: [] }) => {
      const known = topics.filter((topic) => overrides.has(topic));
      if (known.length < topics.length) throw new Error('This server does not host this topic-partition');
      return { topics: known.map((name) => ({ name, partitions: [] })) };
    },
    createTopics: async ({ topics }) => {
      if (cluster.controller === 0) throw new Error('Broker 0 not found in the cached metadata');
      let createdAny = false;
      for (const topic of topics) {
        if (overrides.has(topic.topic)) continue;
        createdAny = true;
        created.push(topic);
        overrides.set(topic.topic, new Map((topic.configEntries ?? []).map((e) => [e.name, e.value])));
      }
      return createdAny;
    },
    describeConfigs: async ({ resources }): Promise<DescribeConfigResponse> => ({
      throttleTime: 0,
      resources: resources.map(({ name, type }) => {
        const own = overrides.get(name) ?? new Map<string, string>();
        // Broker defaults show up too, with their own source: they must not count as the topic's.
        const defaults = [entry('retention.ms', '604800000', 5), entry('retention.bytes', '-1', 5), entry('cleanup.policy', 'delete', 5)];
        return {
          resourceName: name, resourceType: type, errorCode: 0, errorMessage: '',
          configEntries: [
            ...[...own].map(([configName, value]) => entry(configName, value, 1)),
            ...defaults.filter((d) => !own.has(d.configName)),
          ],
        };
      }),
    }),
    alterConfigs: async ({ resources }) => {
      for (const resource of resources) {
        altered.push(resource);
        // Like the real AlterConfigs: the sent set replaces every override of the topic.
        overrides.set(resource.name, new Map(resource.configEntries.map((e) => [e.name, e.value])));
      }
    },
  };
  return { admin, created, altered, overrides };
}

const settings = (historyTopics: string[]) => ({ numPartitions: 6, replicationFactor: 3, historyTopics: new Set(historyTopics) });
const historyOverrides = Object.fromEntries(HISTORY_TOPIC_CONFIG.map((e) => [e.name, e.value]));

describe('kafka topic settings (no broker needed)', () => {
  it('creates a history topic with infinite retention and leaves other topics and dead-letter topics alone', async () => {
    const { admin, created, altered } = fakeAdmin();
    const ensured = await ensureKafkaTopics(admin, ['facts', 'stream'], settings(['facts']));
    expect(ensured.sort()).toEqual(['facts', 'facts.dlq', 'stream', 'stream.dlq']);
    const byName = new Map(created.map((topic) => [topic.topic, topic]));
    expect(byName.get('facts')!.configEntries).toEqual([
      { name: 'retention.ms', value: '-1' },
      { name: 'retention.bytes', value: '-1' },
      { name: 'cleanup.policy', value: 'delete' },
    ]);
    for (const other of ['facts.dlq', 'stream', 'stream.dlq']) {
      expect(byName.get(other)!.configEntries).toBeUndefined();
      expect(byName.get(other)).toMatchObject({ numPartitions: 6, replicationFactor: 3 });
    }
    expect(altered).toEqual([]);
  });

  it('gives an existing history topic infinite retention, keeping its other overrides', async () => {
    const { admin, altered, overrides } = fakeAdmin({
      facts: { 'retention.ms': '604800000', 'min.insync.replicas': '2' },
      'facts.dlq': {},
      stream: { 'retention.ms': '3600000' },
      'stream.dlq': {},
    });
    await ensureKafkaTopics(admin, ['facts', 'stream'], settings(['facts']));
    expect(altered.map((resource) => resource.name)).toEqual(['facts']);
    expect(Object.fromEntries(overrides.get('facts')!)).toEqual({ 'min.insync.replicas': '2', ...historyOverrides });
    expect(Object.fromEntries(overrides.get('stream')!)).toEqual({ 'retention.ms': '3600000' });

    // Once set, ensuring again changes nothing.
    await ensureKafkaTopics(admin, ['facts', 'stream'], settings(['facts']));
    expect(altered).toHaveLength(1);
  });
});

describe('kafka topic provisioning (no broker needed)', () => {
  it('explains a cluster without a controller broker instead of the client\'s puzzle', async () => {
    const { admin, created } = fakeAdmin({}, { controller: 0 });
    await expect(ensureKafkaTopics(admin, ['facts'], settings(['facts']))).rejects.toThrow(
      /names no controller broker \(controller 0, brokers 1, 2, 3\).*KAFKA_TOPIC_PROVISIONING=external/,
    );
    expect(created).toEqual([]);
  });

  it('external: refuses to start naming the missing topics, creating nothing', async () => {
    const { admin, created, altered } = fakeAdmin({ facts: historyOverrides, 'facts.dlq': {} });
    await expect(
      ensureKafkaTopics(admin, ['facts', 'stream'], { ...settings(['facts']), provisioning: 'external' }),
    ).rejects.toThrow('these topics do not exist: stream, stream.dlq');
    expect(created).toEqual([]);
    expect(altered).toEqual([]);
  });

  it('external: accepts provisioned topics and refuses a history topic without its settings, altering nothing', async () => {
    const provisioned = { facts: historyOverrides, 'facts.dlq': {}, stream: {}, 'stream.dlq': {} };
    const ok = fakeAdmin(provisioned);
    const ensured = await ensureKafkaTopics(ok.admin, ['facts', 'stream'], { ...settings(['facts']), provisioning: 'external' });
    expect(ensured.sort()).toEqual(['facts', 'facts.dlq', 'stream', 'stream.dlq']);

    const bare = fakeAdmin({ ...provisioned, facts: { 'retention.ms': '604800000' } });
    await expect(
      ensureKafkaTopics(bare.admin, ['facts', 'stream'], { ...settings(['facts']), provisioning: 'external' }),
    ).rejects.toThrow('facts lack the history settings retention.ms=-1, retention.bytes=-1, cleanup.policy=delete');
    expect(bare.altered).toEqual([]);
  });

  it('external on a cluster that cannot describe configs: says what it could not check', async () => {
    const { admin } = fakeAdmin({ facts: {}, 'facts.dlq': {} }, { controller: 0 });
    const warnings: string[] = [];
    await ensureKafkaTopics(admin, ['facts'], { ...settings(['facts']), provisioning: 'external', warn: (m) => void warnings.push(m) });
    expect(warnings).toEqual([expect.stringContaining('facts must keep its whole history: retention.ms=-1')]);
  });
});

interface BrokerRun {
  readonly label: string;
  readonly brokers: readonly string[];
  readonly topicProvisioning: 'admin' | 'external';
  /** The mock holds a group's rebalance for the session timeout after its last member left. */
  readonly sessionTimeoutMs?: number;
  readonly fetchMaxWaitMs?: number;
}

const runs: BrokerRun[] = [];
if (kafka.brokers === null) console.log('skipped: kafka contract on a real broker: no container runtime (and KAFKA_BROKERS not set)');
else runs.push({ label: 'kafka', brokers: kafka.brokers, topicProvisioning: 'admin' });
if (mock.cluster === null) console.log(`skipped: kafka contract on the librdkafka mock cluster: ${mock.reason}`);
else runs.push({ label: 'kafka on the librdkafka mock cluster', brokers: mock.cluster.brokers, ...KAFKA_MOCK_SETTINGS, sessionTimeoutMs: 6_000 });
if (runs.length === 0) {
  describe.skip('EventBus contract: kafka (skipped: no container runtime, kcat missing)', () => {
    it('skipped: no broker', () => undefined);
  });
}

for (const run of runs) {
  let counter = 0;
  eventBusContract(
    run.label,
    // tightLimits: nothing to tighten from here; the broker applies retention on its own schedule
    // (the topic settings are checked by the tests without a broker and by the one below).
    async ({ historyTopics }) => {
      const clientId = `skald-test-${process.pid}-${counter++}`;
      const open = (): Promise<EventBus> =>
        createEventBus({
          kind: 'kafka', brokers: run.brokers, clientId, replicationFactor: 1, historyTopics, topicProvisioning: run.topicProvisioning,
          ...(run.sessionTimeoutMs !== undefined ? { sessionTimeoutMs: run.sessionTimeoutMs } : {}),
          ...(run.fetchMaxWaitMs !== undefined ? { fetchMaxWaitMs: run.fetchMaxWaitMs } : {}),
        });
      const opened: EventBus[] = [await open()];
      return {
        adapter: opened[0]!,
        reopen: async () => {
          const bus = await open();
          opened.push(bus);
          return bus;
        },
        trim: async () => undefined,
        cleanup: async () => {
          for (const bus of opened) await bus.close();
        },
      };
    },
    { deliveryTimeoutMs: 45_000, testTimeoutMs: 120_000 },
  );
}

for (const run of runs) {
  describe(`kafka observer on ${run.label}`, () => {
    // timeout: the mock cluster's group join and rebalance take seconds each
    it('joins a group of its own, starts at the end, and commits no offset (nothing stays behind)', { timeout: 120_000 }, async () => {
      const suffix = `${process.pid}-${Date.now()}`;
      const topic = `observer-offsets.${suffix}`;
      const clientId = `skald-observer-${suffix}`;
      const bus = await createEventBus({
        kind: 'kafka', brokers: run.brokers, clientId, replicationFactor: 1, historyTopics: [], topicProvisioning: run.topicProvisioning,
        ...(run.sessionTimeoutMs !== undefined ? { sessionTimeoutMs: run.sessionTimeoutMs } : {}),
      });
      const { Kafka, logLevel: levels } = await import('kafkajs');
      const client = new Kafka({ clientId, brokers: [...run.brokers], logLevel: levels.NOTHING });
      const admin = client.admin();
      const groups: string[] = [];
      const received: string[] = [];
      try {
        await bus.ensureTopics([topic]);
        await bus.publish([{ topic, key: 'k', payload: 'before', id: 'before' }]);
        await admin.connect();
        const observer = await startKafkaObserver(
          { consumer: (config) => (groups.push(config.groupId), client.consumer(config)) },
          admin,
          { topics: [topic], handler: async (message) => void received.push(message.id) },
          { clientId, maxBytesPerPartition: 1024 * 1024, decode: decodeKafkaMessage, ...(run.sessionTimeoutMs !== undefined ? { sessionTimeoutMs: run.sessionTimeoutMs } : {}) },
          () => undefined,
        );
        await bus.publish(['a', 'b', 'c'].map((id) => ({ topic, key: id, payload: id, id })));
        const deadline = Date.now() + 45_000;
        while (received.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        await observer.stop();
        expect([...received].sort()).toEqual(['a', 'b', 'c']);
        expect(groups).toHaveLength(1);
        expect(groups[0]).toMatch(new RegExp(`^${clientId}\\.observer\\.[0-9a-f-]{36}$`));
        const committed = await admin.fetchOffsets({ groupId: groups[0]!, topics: [topic] });
        expect(committed.flatMap((entry) => entry.partitions.map((partition) => partition.offset)).every((offset) => offset === '-1')).toBe(true);
      } finally {
        await admin.disconnect();
        await bus.close();
      }
    });
  });
}

if (kafka.brokers !== null) {
  const brokers = kafka.brokers;
  describe('kafka topic settings on the broker', () => {
    // timeout: creates topics on a real broker through the admin API
    it('creates a history topic with retention.ms=-1 and a normal topic with the broker default', { timeout: 120_000 }, async () => {
      const suffix = `${process.pid}-${Date.now()}`;
      const facts = `settings-history.${suffix}`;
      const stream = `settings-stream.${suffix}`;
      const bus = await createEventBus({ kind: 'kafka', brokers, clientId: `skald-settings-${suffix}`, replicationFactor: 1, historyTopics: [facts] });
      const { Kafka } = await import('kafkajs');
      const admin = new Kafka({ clientId: `skald-settings-admin-${suffix}`, brokers: [...brokers] }).admin();
      try {
        await bus.ensureTopics([facts, stream]);
        await admin.connect();
        const described = await admin.describeConfigs({
          includeSynonyms: false,
          resources: [facts, stream].map((name) => ({ type: 2, name })),
        });
        const value = (topic: string, config: string): string | undefined =>
          described.resources.find((r) => r.resourceName === topic)?.configEntries.find((e) => e.configName === config)?.configValue;
        expect(value(facts, 'retention.ms')).toBe('-1');
        expect(value(facts, 'retention.bytes')).toBe('-1');
        expect(value(stream, 'retention.ms')).not.toBe('-1');
      } finally {
        await admin.disconnect();
        await bus.close();
      }
    });
  });
}
