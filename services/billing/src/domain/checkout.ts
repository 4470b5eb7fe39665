/**
 * Checkout and portal (docs/spec/part-2.txt section 4): who may buy what. An owner may buy a tier above the current
 * one while the server has no active subscription (with one, plan changes go through the portal); a paid
 * tier without a configured price cannot be bought. The portal needs the server's payment customer.
 */
import { TIER_KEYS, isSubscriptionActive, isTierKey } from '@skald/contracts';
import type { Payments } from '@skald/ports';
import { HttpError } from '@skald/service-kit';
import type { IdentityReadModel } from '@skald/service-kit';
import { currentTierOf } from './current-tier.ts';
import type { SubscriptionRepository } from './subscriptions.ts';

export const UNKNOWN_TIER = 'Unknown tier.';
export const ALREADY_SUBSCRIBED = 'This server already has an active subscription. Change the plan with Manage Subscription.';
export const NOT_HIGHER = 'Only a plan higher than the current one can be bought.';
export const NO_PRICE = 'This plan cannot be bought on this installation.';
export const NO_CUSTOMER = 'This server has no subscription to manage.';
export const PROVIDER_FAILED = 'The payment provider could not be reached.';

export interface CheckoutDeps {
  readonly payments: Payments;
  readonly directory: IdentityReadModel;
  readonly subscriptions: SubscriptionRepository;
  readonly publicUrl: string;
}

const rank = (tier: string): number => (TIER_KEYS as readonly string[]).indexOf(tier);

async function provider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new HttpError(502, PROVIDER_FAILED, { detail: (error as Error).message });
  }
}

export async function startCheckout(deps: CheckoutDeps, serverId: string, tier: string): Promise<{ url: string }> {
  if (!isTierKey(tier)) throw new HttpError(400, UNKNOWN_TIER);
  const current = await currentTierOf(serverId, deps.directory, deps.subscriptions);
  if (isSubscriptionActive(current)) throw new HttpError(409, ALREADY_SUBSCRIBED);
  if (rank(tier) <= rank(current.tierKey)) throw new HttpError(409, NOT_HIGHER);
  if (deps.payments.priceOf(tier) === null) throw new HttpError(400, NO_PRICE);
  let customerId = (await deps.subscriptions.get(serverId))?.customerId ?? null;
  if (customerId === null) {
    const server = await deps.directory.server(serverId);
    customerId = (await provider(() => deps.payments.createCustomer({ serverId, name: server?.name ?? serverId }))).customerId;
    await deps.subscriptions.put(serverId, { customerId });
  }
  const session = await provider(() =>
    deps.payments.createCheckoutSession({
      serverId,
      tier,
      customerId: customerId!,
      successUrl: `${deps.publicUrl}/billing?success=true`,
      cancelUrl: `${deps.publicUrl}/billing?canceled=true`,
    }),
  );
  return { url: session.url };
}

export async function startPortal(deps: CheckoutDeps, serverId: string): Promise<{ url: string }> {
  const customerId = (await deps.subscriptions.get(serverId))?.customerId ?? null;
  if (customerId === null) throw new HttpError(409, NO_CUSTOMER);
  return provider(() => deps.payments.createPortalSession({ customerId, returnUrl: `${deps.publicUrl}/billing` }));
}
