/**
 * How a subscription's state becomes a server's tier and suspension (docs/spec/part-2.txt section 4 and the Terms; the rules
 * are in docs/BILLING.md):
 *  - active or trialing: the tier its price belongs to; billing's non-payment suspension is lifted;
 *  - past_due: grace. Nothing changes while Stripe retries the payment (its Smart Retries schedule);
 *  - unpaid (Stripe's retries are exhausted and it keeps the subscription): the tier stays, the server is
 *    suspended (ingestion answers 403) until an invoice is paid and the status is active again;
 *  - canceled (at the period end after a cancellation, or at once), paused: free tier, billing's
 *    suspension lifted (free needs no payment);
 *  - incomplete, incomplete_expired (the first payment pending or never made): nothing changes, the server
 *    keeps the tier it had.
 * A cancellation at the period end keeps the tier (status stays active, cancel_at_period_end set) until
 * Stripe ends the subscription; the period-end sweep reverts it to free should that event never come.
 */
import { isTierKey } from '@skald/contracts';
import type { TierKey } from '@skald/contracts';
import type { PaymentSubscription } from '@skald/ports';

export interface Desired {
  /** null: keep the tier. */
  readonly tier: TierKey | null;
  /** null: keep billing's suspension as it is. */
  readonly suspendedForPayment: boolean | null;
}

export function desiredState(sub: Pick<PaymentSubscription, 'status' | 'tier'>): Desired {
  switch (sub.status) {
    case 'active':
    case 'trialing':
      return { tier: sub.tier !== null && isTierKey(sub.tier) ? sub.tier : null, suspendedForPayment: false };
    case 'unpaid':
      return { tier: null, suspendedForPayment: true };
    case 'canceled':
    case 'paused':
      return { tier: 'free', suspendedForPayment: false };
    default:
      // past_due (grace), incomplete and incomplete_expired (never paid), anything new: no change.
      return { tier: null, suspendedForPayment: null };
  }
}
