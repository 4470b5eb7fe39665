import type { CreateCheckoutSessionBody, CreatePortalSessionBody, CurrentTier, SessionUrl, TierList } from '@skald/contracts/api';
import { apiSlice } from '../../app/api.ts';

/** The current tier refreshes on mount and every 10 seconds (docs/spec/part-2.txt sections 4, 9). */
export const CURRENT_TIER_POLL_MS = 10_000;

/** The 503 text of checkout and portal on an installation without Stripe. */
export const PAYMENTS_NOT_CONFIGURED = 'Payments are not configured on this installation.';

export const billingApi = apiSlice.enhanceEndpoints({ addTagTypes: ['Tiers', 'CurrentTier'] }).injectEndpoints({
  endpoints: (build) => ({
    /** Public: the 8 tiers, lowest to highest. */
    tiers: build.query<TierList, undefined>({
      query: () => '/tiers',
      providesTags: ['Tiers'],
    }),
    currentTier: build.query<CurrentTier, string>({
      query: (serverId) => `/tiers/current-tier/${encodeURIComponent(serverId)}`,
      providesTags: (_r, _e, serverId) => [{ type: 'CurrentTier', id: serverId }],
    }),
    createCheckoutSession: build.mutation<SessionUrl, CreateCheckoutSessionBody>({
      query: (body) => ({ url: '/billing/create-checkout-session', method: 'POST', body }),
    }),
    createPortalSession: build.mutation<SessionUrl, CreatePortalSessionBody>({
      query: (body) => ({ url: '/billing/create-portal-session', method: 'POST', body }),
    }),
  }),
});

export const { useTiersQuery, useCurrentTierQuery, useCreateCheckoutSessionMutation, useCreatePortalSessionMutation } = billingApi;

/**
 * docs/spec/part-2.txt section 4: a subscription is active when it has an id and its status is active or trialing. (The
 * contract's isSubscriptionActive says the same; the web takes only types from the contracts.)
 */
export function isSubscriptionActive(current: Pick<CurrentTier, 'stripeSubscriptionId' | 'subscriptionStatus'>): boolean {
  return current.stripeSubscriptionId !== null && (current.subscriptionStatus === 'active' || current.subscriptionStatus === 'trialing');
}

export type PlanAction = 'current' | 'upgrade' | 'none';

/**
 * What a plan card offers (docs/spec/part-2.txt section 4): the current tier says 'Current Plan'; without an active
 * subscription only higher tiers offer Upgrade; with one, plan changes go through the portal, so no
 * card offers Upgrade; lower tiers offer nothing. Tiers come lowest first, so order is list position.
 * Before the current tier is known every card offers nothing.
 */
export function planAction(tiers: TierList, tierKey: string, current: CurrentTier | undefined): PlanAction {
  if (!current) return 'none';
  if (tierKey === current.tierKey) return 'current';
  if (isSubscriptionActive(current)) return 'none';
  const index = tiers.findIndex((t) => t.key === tierKey);
  const currentIndex = tiers.findIndex((t) => t.key === current.tierKey);
  return currentIndex >= 0 && index > currentIndex ? 'upgrade' : 'none';
}

/** Leaves the app for the payment provider's page (a module of its own so tests can replace it). */
export const paymentRedirect = {
  to(url: string): void {
    window.location.assign(url);
  },
};
