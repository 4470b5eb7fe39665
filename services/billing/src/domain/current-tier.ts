/**
 * GET /tiers/current-tier: billing's own store: the tier billing last published for the server (it is the
 * tier's one publisher, so its record is current at once, before its own read model consumed the event),
 * else the tier the identity read model holds (server.created's free, or a server billing never changed).
 */
import { isTierKey } from '@skald/contracts';
import type { CurrentTier } from '@skald/contracts';
import type { IdentityReadModel } from '@skald/service-kit';
import type { SubscriptionRepository } from './subscriptions.ts';

export async function currentTierOf(serverId: string, directory: IdentityReadModel, subscriptions: SubscriptionRepository): Promise<CurrentTier> {
  const sub = await subscriptions.get(serverId);
  const server = sub?.publishedTier ? null : await directory.server(serverId);
  const tier = sub?.publishedTier ?? (server && isTierKey(server.tier) ? server.tier : 'free');
  return {
    tierKey: tier,
    stripeSubscriptionId: sub?.subscriptionId ?? null,
    subscriptionStatus: sub?.status ?? null,
    is_cancelling: sub?.cancelAtPeriodEnd ?? false,
  };
}
