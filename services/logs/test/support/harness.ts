/**
 * The logs service as the test kit builds it: the real factory over the embedded adapters (SQLite log and
 * document stores, file-system objects, the journal bus, the embedded job queue), real access tokens, and
 * a settable clock for the read side (LogsServiceOptions.now). Servers and memberships are published as
 * identity events and awaited until the service's own read model has applied them.
 */
import { buildTestService, waitFor } from '@skald/testing';
import type { SeedServer, TestService } from '@skald/testing';
import type { ServerRole } from '@skald/contracts';
import type { LogRecord } from '@skald/ports';
import type { ServiceModule } from '@skald/service-kit';
import { createLogsServiceWith } from '../../src/logs-service.ts';
import type { LogsServiceControl, LogsServiceOptions } from '../../src/logs-service.ts';

export const NOW = Date.parse('2025-08-20T12:00:00.000Z');

export interface Harness extends TestService<ServiceModule & LogsServiceControl> {
  /** What the service's `now` option answers; starts at NOW. */
  readonly clock: { now: number };
}

export async function createHarness(options: Omit<LogsServiceOptions, 'now'> = {}): Promise<Harness> {
  const clock = { now: NOW };
  const service = await buildTestService((deps) => createLogsServiceWith(deps, { ...options, now: () => clock.now }), { service: 'logs' });
  return Object.assign(service, { clock });
}

/** A GET as `userId` (with a real access token), or without any token when userId is null. */
export function getAs(h: Harness, url: string, userId: string | null) {
  return userId === null ? h.inject({ method: 'GET', url }) : h.injectAs({ id: userId }, { method: 'GET', url });
}

/** True once the service lets the user read the server (the read model has the membership). */
async function canRead(h: Harness, serverId: string, userId: string): Promise<boolean> {
  return (await getAs(h, `/settings/levels?serverId=${encodeURIComponent(serverId)}`, userId)).statusCode === 200;
}

/** Publishes a server (its owner included) and further members, and waits until the service knows each of them. */
export async function seedServer(h: Harness, server: SeedServer, members: Readonly<Record<string, ServerRole>> = {}): Promise<void> {
  await h.identity.server(server);
  for (const [userId, role] of Object.entries(members)) await h.identity.member(server.serverId, userId, role);
  for (const userId of [server.ownerId, ...Object.keys(members)]) {
    await waitFor(() => canRead(h, server.serverId, userId), `${userId} on ${server.serverId} in the logs read model`);
  }
}

/**
 * The route tests' two tenants: `serverId` (free tier) owned by owner-1 with admin-1 as admin and user-1 as
 * user, and `otherId` (pro) of a stranger, for the other-tenant cases.
 */
export async function seedTenants(h: Harness, serverId: string, otherId: string): Promise<void> {
  await seedServer(h, { serverId, ownerId: 'owner-1', tier: 'free' }, { 'admin-1': 'admin', 'user-1': 'user' });
  await seedServer(h, { serverId: otherId, ownerId: 'stranger', tier: 'pro' });
}

/** Ids of a server's stored logs, newest first. */
export async function storedIds(h: Harness, serverId: string): Promise<string[]> {
  return (await h.deps.logStore.query({ serverId, offset: 0, limit: 100_000 })).items.map((r) => r.id);
}

/** Keys of every stored object. */
export async function storedObjects(h: Harness): Promise<string[]> {
  return (await h.deps.objects.list('')).map((o) => o.key);
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
