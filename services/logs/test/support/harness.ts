/**
 * Builds the logs routes on a Fastify app with in-memory stores, a fixed clock, a fake identity directory
 * and a test authentication (header `x-test-user`), so route behaviour is tested without the JWT plugin.
 */
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { randomBytes } from 'node:crypto';
import type { Counters, LogRecord, LogStore } from '@skald/ports';
import { MemoryCounters } from '@skald/adapters';
import { createImageUrlSigner } from '../../src/domain/image-url.ts';
import { createLevelColorsRepository } from '../../src/domain/level-colors.ts';
import type { ServerDirectory, ServerInfo, ServerRole } from '../../src/domain/server-directory.ts';
import { registerLogsRoutes } from '../../src/http/routes.ts';
import { MemoryLogStore } from './memory-log-store.ts';
import { MemoryDocumentStore, MemoryObjectStore } from './memory-stores.ts';

export class FakeDirectory implements ServerDirectory {
  readonly roles = new Map<string, ServerRole>();
  readonly servers = new Map<string, ServerInfo>();
  async roleOf(userId: string, serverId: string) {
    return this.roles.get(`${serverId}:${userId}`) ?? null;
  }
  async server(serverId: string) {
    return this.servers.get(serverId) ?? null;
  }
  addServer(serverId: string, tier = 'free', suspended = false): void {
    this.servers.set(serverId, { tier, suspended });
  }
  grant(serverId: string, userId: string, role: ServerRole): void {
    this.roles.set(`${serverId}:${userId}`, role);
  }
}

export interface Harness<S extends LogStore = MemoryLogStore> {
  readonly app: FastifyInstance;
  readonly logStore: S;
  readonly objects: MemoryObjectStore;
  readonly counters: Counters;
  readonly directory: FakeDirectory;
  readonly secretsKey: string;
  now: number;
}

export const NOW = Date.parse('2025-08-20T12:00:00.000Z');

export async function createHarness(): Promise<Harness>;
export async function createHarness<S extends LogStore>(logStore: S): Promise<Harness<S>>;
export async function createHarness(store?: LogStore): Promise<Harness<LogStore>> {
  const logStore = store ?? new MemoryLogStore();
  const objects = new MemoryObjectStore();
  const counters = new MemoryCounters();
  const directory = new FakeDirectory();
  const secretsKey = randomBytes(32).toString('base64');
  const app = Fastify({ logger: false });
  const harness: Harness<LogStore> = { app, logStore, objects, counters, directory, secretsKey, now: NOW };
  await registerLogsRoutes(app, {
    authenticate: async (request) => {
      const user = request.headers['x-test-user'];
      return typeof user === 'string' ? user : null;
    },
    directory,
    logStore,
    objects,
    counters,
    colors: await createLevelColorsRepository(new MemoryDocumentStore()),
    signer: createImageUrlSigner(secretsKey, '/api'),
    log: pino({ level: 'silent' }),
    now: () => harness.now,
  });
  await app.ready();
  return harness;
}

let seq = 0;
export function record(serverId: string, overrides: Partial<LogRecord> = {}): LogRecord {
  seq += 1;
  const createdAt = overrides.createdAt ?? NOW - seq * 1000;
  return {
    id: overrides.id ?? `log-${String(seq).padStart(6, '0')}`,
    serverId,
    createdAt,
    level: 'info',
    type: 'General',
    resource: 'unknown',
    message: `message ${seq}`,
    metadata: null,
    logType: 'text',
    imageKey: null,
    thumbKey: null,
    expiresAt: createdAt + 7 * 86_400_000,
    ...overrides,
  };
}
