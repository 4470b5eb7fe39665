/**
 * The billing service as the test kit builds it: the real factory over the embedded adapters, real access
 * tokens, servers and memberships published as identity events and awaited in billing's own read model.
 */
import { buildTestService, waitFor } from '@skald/testing';
import type { SeedServer, TestService, TestServiceOptions } from '@skald/testing';
import type { ServerRole } from '@skald/contracts';
import type { ServiceDeps, ServiceModule } from '@skald/service-kit';
import { createBillingServiceWith } from '../../src/billing-service.ts';
import type { BillingServiceOptions } from '../../src/billing-service.ts';

export type Harness = TestService<ServiceModule>;

export async function createHarness(
  options: BillingServiceOptions | ((deps: ServiceDeps) => BillingServiceOptions) = {},
  testOptions: TestServiceOptions = {},
): Promise<Harness> {
  return buildTestService((deps) => createBillingServiceWith(deps, typeof options === 'function' ? options(deps) : options), {
    service: 'billing',
    ...testOptions,
  });
}

export function getAs(h: Harness, url: string, userId: string | null) {
  return userId === null ? h.inject({ method: 'GET', url }) : h.injectAs({ id: userId }, { method: 'GET', url });
}

export function postAs(h: Harness, url: string, userId: string | null, payload: unknown) {
  return userId === null ? h.inject({ method: 'POST', url, payload: payload as object }) : h.injectAs({ id: userId }, { method: 'POST', url, payload: payload as object });
}

/** Publishes a server and its members and waits until billing's read model knows each of them. */
export async function seedServer(h: Harness, server: SeedServer, members: Readonly<Record<string, ServerRole>> = {}): Promise<void> {
  await h.identity.server(server);
  for (const [userId, role] of Object.entries(members)) await h.identity.member(server.serverId, userId, role);
  for (const userId of [server.ownerId, ...Object.keys(members)]) {
    await waitFor(
      async () => (await getAs(h, `/tiers/current-tier/${encodeURIComponent(server.serverId)}`, userId)).statusCode === 200,
      `${userId} on ${server.serverId} in billing's read model`,
    );
  }
}
