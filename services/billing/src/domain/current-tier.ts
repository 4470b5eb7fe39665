/** GET /tiers/current-tier: the tier as last published (identity read model) and billing's subscription. */
import { isTierKey } from '@skald/contracts';
import type { CurrentTier } from '@skald/contracts';
import type { IdentityReadModel } from '@skald/service-kit';
import type { SubscriptionRepository } from './subscriptions.ts';

export async function currentTierOf(serverId: string, directory: IdentityReadModel, subscriptions: SubscriptionRepository): Promise<CurrentTier> {
  const server = await directory.server(serverId);
  const tier = server && isTierKey(server.tier) ? server.tier : 'free';
  const sub = await subscriptions.get(serverId);
  return {
    tierKey: tier,
    stripeSubscriptionId: sub?.subscriptionId ?? null,
    subscriptionStatus: sub?.status ?? null,
    is_cancelling: sub?.cancelAtPeriodEnd ?? false,
  };
}
