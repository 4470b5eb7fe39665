/**
 * HTTP answer and body shapes of the billing service (docs/spec/part-2.txt sections 3, 4, 7): the tier list, a
 * server's current tier and subscription, and the checkout / portal session calls. Every field listed is
 * sent on every answer (no optional fields).
 */
import Type from 'typebox';
import type { Static } from 'typebox';

const TierKeySchema = Type.Union([
  Type.Literal('free'),
  Type.Literal('lite'),
  Type.Literal('starter'),
  Type.Literal('explorer'),
  Type.Literal('voyager'),
  Type.Literal('pioneer'),
  Type.Literal('pro'),
  Type.Literal('legend'),
]);

/** The limits of a tier the specification names (part-2 section 3), in its order; the admin's tierInfo has them too. */
export const SPEC_TIER_LIMITS = {
  /** Logs per hour. */
  limit: Type.Integer(),
  retentionDays: Type.Integer(),
  maxPhotoLogs: Type.Integer(),
  maxServerUsers: Type.Integer(),
  maxExportsPerMonth: Type.Integer(),
  maxWebhooks: Type.Integer(),
  maxBackups: Type.Integer(),
};

/** One tier (docs/spec/part-2.txt section 3): the values of libs/contracts/src/tiers.ts. */
export const ApiTierSchema = Type.Object(
  {
    key: TierKeySchema,
    label: Type.String(),
    /** Euro per month. */
    price: Type.Number(),
    ...SPEC_TIER_LIMITS,
    /** Alert rules per server (docs/ALERTS.md). */
    maxAlertRules: Type.Integer(),
    /** Evidence cases per server (docs/CASES.md). */
    maxCases: Type.Integer(),
  },
  { additionalProperties: false },
);
export type ApiTier = Static<typeof ApiTierSchema>;

/** GET /tiers: the 8 tiers, lowest to highest (free … legend). Public. */
export const TierListSchema = Type.Array(ApiTierSchema);
export type TierList = Static<typeof TierListSchema>;

/**
 * GET /tiers/current-tier/{serverId}: the server's tier and its subscription. A subscription is active when
 * `stripeSubscriptionId` is set and `subscriptionStatus` is 'active' or 'trialing' (isSubscriptionActive).
 * A server that never subscribed answers its tier, null, null, false.
 */
export const CurrentTierSchema = Type.Object(
  {
    tierKey: TierKeySchema,
    stripeSubscriptionId: Type.Union([Type.String(), Type.Null()]),
    /** Stripe's subscription status ('active', 'trialing', 'past_due', 'canceled', 'unpaid', …) or null. */
    subscriptionStatus: Type.Union([Type.String(), Type.Null()]),
    /** True when the subscription is set to end at the period end (the tier reverts to free then). */
    is_cancelling: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type CurrentTier = Static<typeof CurrentTierSchema>;

/** docs/spec/part-2.txt section 9: active = has a subscription id and the status is active or trialing. */
export function isSubscriptionActive(current: Pick<CurrentTier, 'stripeSubscriptionId' | 'subscriptionStatus'>): boolean {
  return (
    current.stripeSubscriptionId !== null &&
    (current.subscriptionStatus === 'active' || current.subscriptionStatus === 'trialing')
  );
}

/** POST /billing/create-checkout-session body (owner only). */
export const CreateCheckoutSessionBodySchema = Type.Object(
  { serverId: Type.String({ minLength: 1 }), tier: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);
export type CreateCheckoutSessionBody = Static<typeof CreateCheckoutSessionBodySchema>;

/** POST /billing/create-portal-session body (owner only). */
export const CreatePortalSessionBodySchema = Type.Object(
  { serverId: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);
export type CreatePortalSessionBody = Static<typeof CreatePortalSessionBodySchema>;

/** Both session calls answer the payment provider's page to redirect to. */
export const SessionUrlSchema = Type.Object({ url: Type.String() }, { additionalProperties: false });
export type SessionUrl = Static<typeof SessionUrlSchema>;

/** POST /billing/webhook answers Stripe with this once the event is stored (or was already). */
export const WebhookAckSchema = Type.Object({ received: Type.Boolean() }, { additionalProperties: false });
export type WebhookAck = Static<typeof WebhookAckSchema>;

/** The 503 text of checkout and portal without Stripe configured. */
export const PAYMENTS_NOT_CONFIGURED = 'Payments are not configured on this installation.';

/** PUT /admin/servers/{id}/tier body (site role admin or superadmin; docs/spec/part-2.txt sections 4, 6). */
export const StaffTierBodySchema = Type.Object({ tier: Type.String({ minLength: 1, maxLength: 32 }) }, { additionalProperties: false });
export type StaffTierBody = Static<typeof StaffTierBodySchema>;

/** PUT /admin/servers/{id}/suspend body (superadmin only): the new state, not a toggle (docs/spec/part-2.txt section 4). */
export const StaffSuspensionBodySchema = Type.Object({ suspended: Type.Boolean() }, { additionalProperties: false });
export type StaffSuspensionBody = Static<typeof StaffSuspensionBodySchema>;

/**
 * Both staff calls answer the server's billing state after the change, with the admin area's field names
 * (docs/spec/part-2.txt section 3 admin server detail: tier, is_suspended). The spec shows no answer for them.
 */
export const StaffServerStateSchema = Type.Object(
  { id: Type.String(), tier: TierKeySchema, is_suspended: Type.Boolean() },
  { additionalProperties: false },
);
export type StaffServerState = Static<typeof StaffServerStateSchema>;
