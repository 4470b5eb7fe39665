/**
 * A Kafka-protocol broker on this machine without a container runtime: librdkafka's mock cluster,
 * started through Debian's `kcat` (apt package kcat, which links librdkafka). kcat runs as a producer
 * with `test.mock.num.brokers=3`; librdkafka then starts an in-process three-broker cluster
 * (metadata, produce with acks, fetch, consumer groups, offset commits) and names its brokers on
 * stderr: `bootstrap.servers=127.0.0.1:…` with `debug=mock`, and in the notice "Mock cluster enabled:
 * … replaced with 127.0.0.1:…" without it. We leave debug off: it logs every request, and the CPU
 * that costs slowed the suites sharing the machine. The cluster lives as long as kcat does, and kcat
 * lives as long as its stdin stays open, so we hold stdin open and end it (then kill) on stop().
 *
 * What the mock does NOT do (real-Kafka properties, tested under testcontainers where a container
 * runtime exists): replication with real followers, retention and compaction, broker failover,
 * topic admin (it names no controller broker, so CreateTopics/DescribeConfigs cannot be sent; topics
 * appear on the first metadata request, with 4 partitions). See docs/DEPLOYMENT.md, "Kafka".
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

export const KCAT_PATH = '/usr/bin/kcat';
// Up to the end of the line: a chunk of stderr may end in the middle of an address.
const BOOTSTRAP_PATTERN = /(?:bootstrap\.servers=|replaced with )([0-9.:,]+)\r?\n/;
const START_TIMEOUT_MS = 10_000;

export interface KafkaMockCluster {
  /** host:port of every mock broker, for KAFKA_BROKERS. */
  readonly brokers: readonly string[];
  /** KAFKA_BROKERS value (comma-separated). */
  readonly bootstrap: string;
  /** Ends kcat (the cluster and every message in it goes with it). */
  stop(): Promise<void>;
}

/**
 * What a Skald Kafka client needs on the mock, as adapter settings: it takes no topic admin requests (it
 * names no controller broker, and creates a topic on the first metadata request for it, which is what the
 * external mode's start-up check sends), and it holds an empty fetch for the consumer's whole wait even
 * when messages arrive meanwhile (a real broker answers at once), so the wait is short.
 */
export const KAFKA_MOCK_SETTINGS = { topicProvisioning: 'external', fetchMaxWaitMs: 200 } as const;

/** KAFKA_MOCK_SETTINGS as a Skald process's environment. */
export const KAFKA_MOCK_ENV = {
  KAFKA_TOPIC_PROVISIONING: KAFKA_MOCK_SETTINGS.topicProvisioning,
  KAFKA_FETCH_MAX_WAIT_MS: String(KAFKA_MOCK_SETTINGS.fetchMaxWaitMs),
} as const;

export type KafkaMockStart = { readonly cluster: KafkaMockCluster } | { readonly cluster: null; readonly reason: string };

/** Whether the fixture can run here; the reason printed when it cannot. */
export function kafkaMockUnavailableReason(): string | null {
  return existsSync(KCAT_PATH) ? null : 'kcat missing';
}

/**
 * Starts a mock cluster of `brokers` brokers, or answers why it cannot (kcat missing). A kcat that is
 * present but fails to start is an error, not a skip.
 */
export async function startKafkaMockCluster(brokers = 3): Promise<KafkaMockStart> {
  const reason = kafkaMockUnavailableReason();
  if (reason !== null) return { cluster: null, reason };
  const child = spawn(
    KCAT_PATH,
    // -b is ignored once the mock is on; -t names a topic kcat itself produces to (never used here).
    ['-P', '-b', 'unused:9092', '-t', 'skald-mock-probe', '-X', `test.mock.num.brokers=${brokers}`],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  const bootstrap = await readBootstrap(child);
  // Keep draining stderr (librdkafka's warnings) so kcat never blocks on a full pipe.
  child.stderr?.resume();
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    cluster: {
      brokers: bootstrap.split(','),
      bootstrap,
      async stop() {
        child.stdin?.end();
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      },
    },
  };
}

function readBootstrap(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const fail = (why: string): void => {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(`kafka mock cluster: ${why}; kcat said:\n${seen.slice(-2000)}`));
    };
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString('utf8');
      const match = BOOTSTRAP_PATTERN.exec(seen);
      if (match) {
        cleanup();
        resolve(match[1]!);
      }
    };
    const onExit = (code: number | null): void => fail(`kcat exited (${code}) before printing bootstrap.servers`);
    const timer = setTimeout(() => fail(`no bootstrap.servers within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    const cleanup = (): void => {
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    };
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', (error) => fail(error.message));
  });
}
