/**
 * The distributed form on one machine: the gateway and every service as its own process
 * (`node gateway/src/main.ts` with TARGET=<process>), started from deploy/processes.ts, the list the
 * manifest checker holds docker-compose.yml and deploy/k8s to. Each process gets a value for every
 * setting that list names for it (a missing one is an error, not a silent default) plus the stand-ins
 * below; only the values differ from a deployment's.
 *
 * Stand-ins for what an operator runs: SQLite document and log stores, each process in its own DATA_DIR;
 * the file-system object store on ONE folder every process links as DATA_DIR/objects (the bucket they
 * share in a deployment: ingestion writes the photos the logs service serves); the outbox mailer; the
 * local Stripe test server; PORT and METRICS_PORT 0: each process binds a free port itself and logs it,
 * because a port picked here and bound later can be taken in between by another test file running in
 * parallel (a scrape then reached a stranger and read 404). So the services start first and the gateway,
 * which needs their addresses, last; PUBLIC_URL, which every process needs before the gateway has a port, is
 * a front door this test holds (where a deployment's load balancer stands) forwarding to the gateway.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { join } from 'node:path';
import type { EnvName } from '@skald/config';
import { KAFKA_MOCK_ENV } from '../../libs/adapters/test/support/kafka-mock-cluster.ts';
import { SKALD_PROCESSES, requiredSettings, serviceUrlSetting } from '../../deploy/processes.ts';
import type { BusKind, SkaldProcessSpec } from '../../deploy/processes.ts';
import { metricsPortOf, spawnSkald, startSkald, waitForOk } from './processes.ts';
import type { SkaldProcess } from './processes.ts';

export type ProcessName = SkaldProcessSpec['target'];

export interface TopologyOptions {
  readonly bus: BusKind;
  /** Scratch folder: one DATA_DIR per process, the keys, the shared object folder. */
  readonly root: string;
  readonly redisUrl: string;
  /** Keeps this run's streams, queues and counters apart from everything else on the Redis. */
  readonly redisPrefix: string;
  /** KAFKA_BROKERS of the mock cluster (bus kafka). */
  readonly kafkaBrokers?: string;
  readonly stripe: { readonly url: string; readonly secretKey: string; readonly webhookSecret: string };
}

/**
 * Settings the test adds beyond deploy/processes.ts, and why. Anything else a process gets is a
 * setting the list names (so the manifests carry it too).
 */
function standIns(options: TopologyOptions, target: ProcessName): Record<string, string> {
  const extra: Record<string, string> = { LOG_LEVEL: 'info' };
  if (target === 'gateway') return extra;
  // The run's own key space on the machine's shared Redis.
  extra.REDIS_PREFIX = options.redisPrefix;
  if (options.bus === 'kafka') {
    Object.assign(extra, KAFKA_MOCK_ENV);
    // A SIGKILLed member keeps its partitions this long; the shortest the configuration allows but one
    // a healthy process on a busy 2-core machine still heartbeats within.
    extra.KAFKA_SESSION_TIMEOUT_MS = '8000';
  }
  // The Stripe client talks to the local Stripe-compatible test server.
  if (target === 'billing') extra.STRIPE_API_BASE = options.stripe.url;
  return extra;
}

export interface Topology {
  readonly bus: BusKind;
  /** The running process of each name (a restart replaces it). */
  proc(name: ProcessName): SkaldProcess;
  readonly gatewayUrl: string;
  /** The environment a process runs with (the operator command `users:promote` opens auth's). */
  envOf(name: ProcessName): Record<string, string>;
  /** Every process ever started here, restarted ones included (their output is checked for secrets). */
  everyProcess(): readonly SkaldProcess[];
  /** GET /metrics on the process's METRICS_PORT. */
  scrape(name: ProcessName): Promise<string>;
  /** SIGKILL, as a crashing container or an OOM kill would. */
  kill(name: ProcessName): Promise<void>;
  /** Starts the process again with the same environment and data; resolves once it answers /ready. */
  restart(name: ProcessName): Promise<void>;
  stop(): Promise<void>;
}

function writeKeyPair(dir: string): { publicKeyFile: string; privateKeyFile: string } {
  mkdirSync(dir, { recursive: true });
  const pair = generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const publicKeyFile = join(dir, 'public.pem');
  const privateKeyFile = join(dir, 'private.pem');
  writeFileSync(publicKeyFile, pair.publicKey, { mode: 0o600 });
  writeFileSync(privateKeyFile, pair.privateKey, { mode: 0o600 });
  return { publicKeyFile, privateKeyFile };
}

interface FrontDoor {
  readonly url: string;
  /** Where connections go from now on; until then they are closed. */
  forwardTo(port: number): void;
  close(): Promise<void>;
}

/** A TCP listener on a port of its own (bound here, port 0) that passes each connection on to one upstream port. */
async function openFrontDoor(): Promise<FrontDoor> {
  let upstream: number | undefined;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (upstream === undefined) return void client.destroy();
    const target = connect(upstream, '127.0.0.1');
    for (const socket of [client, target]) {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    }
    client.on('error', () => target.destroy());
    target.on('error', () => client.destroy());
    client.pipe(target).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwardTo: (port) => {
      upstream = port;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}

export async function startTopology(options: TopologyOptions): Promise<Topology> {
  const keys = writeKeyPair(join(options.root, 'keys'));
  const secretsKey = randomBytes(32).toString('base64');
  const sharedObjects = join(options.root, 'objects');
  mkdirSync(sharedObjects, { recursive: true });
  const frontDoor = await openFrontDoor();
  const running = new Map<ProcessName, SkaldProcess>();

  /** This machine's value of a setting deploy/processes.ts names; undefined when the test has none. */
  function valueOf(spec: SkaldProcessSpec, name: EnvName): string | undefined {
    const dataDir = join(options.root, spec.target);
    const values: Partial<Record<EnvName, string>> = {
      TARGET: spec.target,
      PORT: '0',
      METRICS_PORT: '0',
      DATA_DIR: dataDir,
      PUBLIC_URL: frontDoor.url,
      EVENT_BUS: options.bus,
      DOC_STORE: 'sqlite',
      LOG_STORE: 'sqlite',
      OBJECT_STORE: 'fs',
      JOB_QUEUE: 'bullmq',
      COUNTERS: 'redis',
      MAILER: 'outbox',
      REDIS_URL: options.redisUrl,
      ...(options.kafkaBrokers !== undefined ? { KAFKA_BROKERS: options.kafkaBrokers } : {}),
      JWT_PUBLIC_KEY_FILE: keys.publicKeyFile,
      JWT_PRIVATE_KEY_FILE: keys.privateKeyFile,
      SECRETS_KEY: secretsKey,
      // The local receiver and the machine's MariaDB are private hosts the guard must let through.
      OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
      // Two quick attempts, so a failing receiver reaches the dead letters within the run.
      WEBHOOK_MAX_ATTEMPTS: '2',
      WEBHOOK_RETRY_BASE_MS: '100',
      STRIPE_SECRET_KEY: options.stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: options.stripe.webhookSecret,
    };
    if (name.startsWith('STRIPE_PRICE_')) return `price_${name.slice('STRIPE_PRICE_'.length).toLowerCase()}`;
    if (name.startsWith('SERVICE_URL_')) {
      const upstream = SKALD_PROCESSES.find((candidate) => serviceUrlSetting(candidate.target) === name);
      return upstream ? running.get(upstream.target)?.baseUrl : undefined;
    }
    return values[name];
  }

  const envs = new Map<ProcessName, Record<string, string>>();
  /** A process's environment; the gateway's names the addresses of the services, which run by then. */
  function envFor(spec: SkaldProcessSpec): Record<string, string> {
    const env: Record<string, string> = {};
    for (const name of requiredSettings(spec, options.bus)) {
      const value = valueOf(spec, name);
      if (value === undefined) throw new Error(`deploy/processes.ts names ${name} for ${spec.target}, and the test has no value for it`);
      env[name] = value;
    }
    envs.set(spec.target, { ...env, ...standIns(options, spec.target) });
    // The shared bucket: every process's DATA_DIR/objects is the one folder.
    mkdirSync(env.DATA_DIR!, { recursive: true });
    symlinkSync(sharedObjects, join(env.DATA_DIR!, 'objects'));
    return envs.get(spec.target)!;
  }

  const everyProcess: SkaldProcess[] = [];
  const started = (name: ProcessName, proc: SkaldProcess): SkaldProcess => {
    running.set(name, proc);
    everyProcess.push(proc);
    return proc;
  };
  const startOne = async (spec: SkaldProcessSpec): Promise<SkaldProcess> => started(spec.target, await startSkald(spec.target, envFor(spec)));
  const services = SKALD_PROCESSES.filter((spec) => spec.target !== 'gateway');
  const gatewaySpec = SKALD_PROCESSES.find((spec) => spec.target === 'gateway')!;
  try {
    // Settled, not Promise.all: a failure must not leave the others starting unseen, and then running on.
    const failed = (await Promise.allSettled(services.map(startOne))).find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    frontDoor.forwardTo((await startOne(gatewaySpec)).port);
    await Promise.all([...running.values()].map((proc) => waitForOk(proc, '/ready', 60_000)));
  } catch (error) {
    // No process outlives a topology that failed to start.
    await Promise.all([...running.values()].map((proc) => proc.kill('SIGKILL')));
    await frontDoor.close();
    throw error;
  }

  return {
    bus: options.bus,
    gatewayUrl: running.get('gateway')!.baseUrl,
    proc: (name) => running.get(name)!,
    envOf: (name) => envs.get(name)!,
    everyProcess: () => everyProcess,
    async scrape(name) {
      const response = await fetch(`http://127.0.0.1:${await metricsPortOf(running.get(name)!)}/metrics`, { signal: AbortSignal.timeout(5_000) });
      if (response.status !== 200) throw new Error(`${name} /metrics answered ${response.status}`);
      return response.text();
    },
    async kill(name) {
      await running.get(name)!.kill('SIGKILL');
    },
    async restart(name) {
      // On the port it held until it was killed: the gateway and the front door point there.
      const port = running.get(name)!.port;
      await waitForOk(started(name, spawnSkald(name, port, envs.get(name)!)), '/ready', 60_000);
    },
    async stop() {
      await Promise.all([...running.values()].map((proc) => proc.kill('SIGTERM')));
      await frontDoor.close();
    },
  };
}

/** The value of one series in a scrape (`name{labels}` exactly as Prometheus prints it), or undefined. */
export function seriesValue(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** The sum of every series of a metric whose labels contain all of `labels` (`key="value"` pairs). */
export function seriesSum(text: string, metric: string, labels: readonly string[] = []): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${metric}{`) && !line.startsWith(`${metric} `)) continue;
    const close = line.lastIndexOf(' ');
    const head = line.slice(0, close);
    if (labels.every((label) => head.includes(label))) sum += Number(line.slice(close + 1));
  }
  return sum;
}
