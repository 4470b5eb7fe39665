/**
 * createTestDeps: the ServiceDeps a launcher would hand a service, built from the REAL embedded adapters
 * in a fresh temporary folder (SQLite documents and logs, the SQLite bus journal, the embedded job queue,
 * the file-system object store, memory counters, the outbox mailer) and a freshly generated key pair.
 * Tests exercise the same adapters the all-in-one runs, which their contract suites prove; only
 * purpose-built doubles (a bus that fails on demand) are swapped in, through `overrides`.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { DestinationStream } from 'pino';
import { createCounters, createDocumentStore, createEventBus, createJobQueue, createLogStore, createMailer, createObjectStore, createPlayerStore, openedAdapters } from '@skald/adapters';
import { ALL_TOPICS } from '@skald/contracts';
import { createOutboundGuard } from '@skald/service-kit';
import type { KeyMaterial, ServiceDeps, ServiceName } from '@skald/service-kit';

export const TEST_PUBLIC_URL = 'https://skald.test';

export interface TestDeps extends ServiceDeps {
  /** The temporary folder holding every embedded store; removed by cleanup(). */
  readonly root: string;
  /** Closes every adapter this kit opened (not the overrides) and removes the folder. */
  cleanup(): Promise<void>;
}

export interface TestDepsOptions {
  /** Names the service's document store folder (DATA_DIR/<service>/documents.db). Default 'test'. */
  readonly service?: ServiceName | 'test';
  /** Where log lines go (tests that assert on logs); default: nowhere. */
  readonly logStream?: DestinationStream;
  /** Replace single adapters (purpose-built doubles); the caller closes what it passes. */
  readonly overrides?: Partial<Pick<ServiceDeps, 'bus' | 'docs' | 'logStore' | 'objects' | 'jobs' | 'counters' | 'mailer' | 'outbound' | 'playerStore'>>;
  /** Reuse another TestDeps' folder and shared adapters (two services on one bus, like the all-in-one). */
  readonly shareWith?: TestDeps;
}

export function generateTestKeys(): KeyMaterial {
  const pair = generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKeyPem: pair.privateKey, publicKeyPem: pair.publicKey, issuer: 'skald', audience: 'skald-api' };
}

export async function createTestDeps(options: TestDepsOptions = {}): Promise<TestDeps> {
  const service = options.service ?? 'test';
  const shared = options.shareWith;
  const root = shared?.root ?? (await mkdtemp(join(tmpdir(), 'skald-test-')));
  const { open, closeAll } = openedAdapters();
  const o = options.overrides ?? {};
  const docs = o.docs ?? (await open(() => createDocumentStore({ kind: 'sqlite', file: join(root, service, 'documents.db') })));
  const bus = o.bus ?? shared?.bus ?? (await open(() => createEventBus({ kind: 'memory', file: join(root, 'bus', 'journal.db') })));
  await bus.ensureTopics(ALL_TOPICS);
  const logStore = o.logStore ?? shared?.logStore ?? (await open(() => createLogStore({ kind: 'sqlite', file: join(root, 'logs', 'logs.db'), layout: 'blocks' })));
  const objects = o.objects ?? shared?.objects ?? (await open(() => createObjectStore({ kind: 'fs', root: join(root, 'objects') })));
  const jobs = o.jobs ?? shared?.jobs ?? (await open(() => createJobQueue({ kind: 'embedded', file: join(root, 'jobs', 'jobs.db') })));
  const counters = o.counters ?? shared?.counters ?? (await open(() => createCounters({ kind: 'memory' })));
  const mailer =
    o.mailer ?? shared?.mailer ?? (await open(() => createMailer({ kind: 'outbox', dir: join(root, 'outbox'), from: 'skald@skald.test', publishLine: () => {} })));
  // The logs service's own: beside its logs, as the launcher gives it (its queue reads logs back from the
  // log store's file when that store is the one made here).
  const ownLogStore = o.logStore === undefined && shared?.logStore === undefined;
  const playerFiles = { file: join(root, 'logs', 'players.db'), ...(ownLogStore ? { logFile: join(root, 'logs', 'logs.db') } : {}) };
  const playerStore = o.playerStore ?? (service === 'logs' ? await open(() => createPlayerStore({ kind: 'sqlite', ...playerFiles })) : undefined);
  const log = options.logStream ? pino({ level: 'info' }, options.logStream) : pino({ level: 'silent' });
  return {
    root,
    bus,
    docs,
    logStore,
    objects,
    jobs,
    counters,
    mailer,
    keys: shared?.keys ?? generateTestKeys(),
    log,
    publicUrl: TEST_PUBLIC_URL,
    dataDir: join(root, service),
    secretsKey: shared?.secretsKey ?? randomBytes(32).toString('base64'),
    // Customer hosts: nothing private unless a test allows its local receiver (overrides.outbound).
    outbound: o.outbound ?? createOutboundGuard({ allowed: [] }),
    ...(playerStore ? { playerStore } : {}),
    async cleanup() {
      try {
        await closeAll();
      } finally {
        if (!shared) await rm(root, { recursive: true, force: true });
      }
    },
  };
}
