/**
 * The webhooks service as the test kit builds it: the real factory over the embedded adapters (SQLite
 * documents, the journal bus, the embedded job queue), real access tokens, identity facts published as auth
 * and billing do, and a short retry schedule. Receivers run on 127.0.0.1, which the service's outbound guard
 * allows here as OUTBOUND_ALLOWED_HOSTS would; `setAllowed` swaps the allow-list at run time (a destination
 * saved while allowed, refused at send).
 */
import { createOutboundGuard } from '@skald/service-kit';
import type { OutboundGuard, ServiceModule } from '@skald/service-kit';
import { LogsBatchAcceptedEvent, eventMessage } from '@skald/contracts';
import type { AcceptedLog, ServerRole } from '@skald/contracts';
import { buildTestService, waitFor } from '@skald/testing';
import type { SeedServer, TestService, TestServiceOptions } from '@skald/testing';
import { createWebhooksServiceWith } from '../../src/webhooks-service.ts';
import type { WebhooksServiceControl, WebhooksServiceOptions } from '../../src/webhooks-service.ts';

export interface Harness extends TestService<ServiceModule & WebhooksServiceControl> {
  setAllowed(allowed: readonly string[]): void;
  /** Replaces the guard (e.g. one over a stubbed resolver). */
  setGuard(guard: OutboundGuard): void;
}

export const FAST_DELIVERY = { maxAttempts: 3, retryBaseMs: 20, gatherMs: 20, connectTimeoutMs: 1_000, timeoutMs: 2_000 } as const;

export async function createHarness(
  options: WebhooksServiceOptions & { allowed?: readonly string[] } = {},
  testOptions: TestServiceOptions = {},
): Promise<Harness> {
  let current: OutboundGuard = createOutboundGuard({ allowed: options.allowed ?? ['127.0.0.1'] });
  const guard: OutboundGuard = { resolve: (host) => current.resolve(host) };
  const service = await buildTestService(
    (deps) => createWebhooksServiceWith(deps, { outbound: guard, ...options, delivery: { ...FAST_DELIVERY, ...options.delivery } }),
    { service: 'webhooks', ...testOptions },
  );
  return Object.assign(service, {
    setAllowed(allowed: readonly string[]) {
      current = createOutboundGuard({ allowed });
    },
    setGuard(guard: OutboundGuard) {
      current = guard;
    },
  });
}

export function as(h: Harness, userId: string | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  const request = { method, url, ...(payload === undefined ? {} : { payload }) };
  return userId === null ? h.inject(request) : h.injectAs({ id: userId }, request);
}

/** Publishes a server (owner included), its tier and further members, and waits until the service knows each. */
export async function seedServer(h: Harness, server: SeedServer, members: Readonly<Record<string, ServerRole>> = {}): Promise<void> {
  await h.identity.server(server);
  for (const [userId, role] of Object.entries(members)) await h.identity.member(server.serverId, userId, role);
  for (const userId of [server.ownerId, ...Object.keys(members)]) {
    await waitFor(
      async () => (await as(h, userId, 'GET', `/webhooks?serverId=${server.serverId}`)).statusCode !== 404,
      `${userId} on ${server.serverId} in the webhooks read model`,
    );
  }
}

let seq = 0;
export function acceptedLog(overrides: Partial<AcceptedLog> = {}): AcceptedLog {
  seq += 1;
  return {
    id: `log-${String(seq).padStart(6, '0')}`,
    createdAt: Date.now(),
    level: 'info',
    type: 'General',
    resource: 'core',
    message: `message ${seq}`,
    metadata: null,
    logType: 'text',
    imageKey: null,
    thumbKey: null,
    ...overrides,
  };
}

/** Publishes an accepted batch as the ingestion service does. */
export async function publishBatch(h: Harness, serverId: string, logs: AcceptedLog[]): Promise<void> {
  await h.deps.bus.publish([eventMessage(LogsBatchAcceptedEvent, serverId, { serverId, logs })]);
}

export interface CreatedWebhook {
  readonly id: string;
  readonly secret: string | null;
}

export async function createWebhook(h: Harness, userId: string, body: Record<string, unknown>): Promise<CreatedWebhook> {
  const res = await as(h, userId, 'POST', '/webhooks', body);
  if (res.statusCode !== 201) throw new Error(`create webhook: ${res.statusCode} ${res.body}`);
  const answer = res.json<{ webhook: { id: string }; secret: string | null }>();
  return { id: answer.webhook.id, secret: answer.secret };
}
