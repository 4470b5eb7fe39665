/**
 * `npm run skald -- servers:tier <serverId> <tier>` (gateway/src/cli.ts): an operator sets a server's tier
 * on the billing store and bus of a configuration, through the same path as the admin area's staff change
 * (billing stays the one publisher: server.tier-changed with an audit entry, the staff tier rule of
 * docs/BILLING.md). The read model is opened, not started: the command reads the servers billing's running
 * consumer has stored and must not join its consumer group (it would take the group's messages away).
 */
import type { TierKey } from '@skald/contracts';
import type { DocumentStore, EventBus } from '@skald/ports';
import { createAuditPublisher, createIdentityReadModel } from '@skald/service-kit';
import { createBillingState } from './billing-state.ts';
import type { ServerBillingState } from './billing-state.ts';
import { createSubscriptionRepository } from './subscriptions.ts';

/** The actor named in the audit entry of a change made from the command line (as auth's users:promote). */
export const CLI_ACTOR = { id: 'cli', email: 'cli@localhost' } as const;

/** Null when billing does not know the server. */
export async function setServerTierFromCli(docs: DocumentStore, bus: EventBus, serverId: string, tier: TierKey): Promise<ServerBillingState | null> {
  const directory = await createIdentityReadModel({ bus, docs, group: 'billing.identity' });
  if ((await directory.server(serverId)) === null) return null;
  const subscriptions = await createSubscriptionRepository(docs);
  return createBillingState({ bus, directory, subscriptions, audit: createAuditPublisher({ bus, directory }) }).setStaffTier(serverId, tier, CLI_ACTOR);
}
