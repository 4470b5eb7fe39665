/**
 * Billing's own store of each server's subscription (collection `subscriptions`, one document per server,
 * _id = server id). Written from Stripe's webhooks and the checkout flow; read by GET /tiers/current-tier.
 */
import type { TierKey } from '@skald/contracts';
import type { BaseDocument, Collection, DocumentStore } from '@skald/ports';

export interface SubscriptionDocument extends BaseDocument {
  /** Stripe customer id (cus_…); set by checkout.session.completed or the subscription events. */
  readonly customerId: string | null;
  readonly subscriptionId: string | null;
  /** Stripe's subscription status, or null before any subscription. */
  readonly status: string | null;
  /** The tier the subscription pays for (from its price), or null when unknown. */
  readonly tier: TierKey | null;
  readonly cancelAtPeriodEnd: boolean;
  /** Epoch ms of the current period's end, or null. */
  readonly currentPeriodEnd: number | null;
  /** Stripe `created` (epoch seconds) of the newest event whose state was applied (older snapshots are ignored). */
  readonly stateAt: number;
  /** The tier billing last published for the server (null: never; the identity read model's tier holds). */
  readonly publishedTier: TierKey | null;
  /** True while billing holds the server suspended for non-payment (it lifts only its own suspension). */
  readonly suspendedForPayment: boolean;
  /**
   * The tier Stripe's state last asked for (recorded with the publish, so a retried webhook after a failed
   * publish still sees the change). A staff tier yields when Stripe asks for another tier than this one.
   */
  readonly stripeTier: TierKey | null;
  /** A tier staff set (admin area or `servers:tier`); it holds over Stripe's until Stripe's tier changes. */
  readonly staffTier: TierKey | null;
  /** Staff suspended the server (superadmin); only staff lift it, payments never do. */
  readonly staffSuspended: boolean;
  /** Staff lifted billing's non-payment suspension; it holds until the subscription is paid again. */
  readonly paymentSuspensionWaived: boolean;
  /** The billing.subscription-changed data last published for the server (JSON), to publish only changes. */
  readonly publishedFact: string | null;
  readonly updatedAt: number;
}

export type SubscriptionState = Omit<SubscriptionDocument, '_id' | 'updatedAt'>;

export interface SubscriptionRepository {
  get(serverId: string): Promise<SubscriptionDocument | null>;
  /** Finds the server holding a Stripe customer (portal, invoice events). */
  byCustomer(customerId: string): Promise<SubscriptionDocument | null>;
  bySubscription(subscriptionId: string): Promise<SubscriptionDocument | null>;
  put(serverId: string, state: Partial<SubscriptionState>): Promise<SubscriptionDocument>;
  /** Subscriptions set to cancel whose period ended before `nowMs` (the period-end sweep). */
  endedCancellations(nowMs: number): Promise<SubscriptionDocument[]>;
}

export const EMPTY_SUBSCRIPTION: SubscriptionState = {
  customerId: null,
  subscriptionId: null,
  status: null,
  tier: null,
  cancelAtPeriodEnd: false,
  currentPeriodEnd: null,
  stateAt: 0,
  publishedTier: null,
  suspendedForPayment: false,
  stripeTier: null,
  staffTier: null,
  staffSuspended: false,
  paymentSuspensionWaived: false,
  publishedFact: null,
};

export async function createSubscriptionRepository(docs: DocumentStore): Promise<SubscriptionRepository> {
  const collection: Collection<SubscriptionDocument> = await docs.collection<SubscriptionDocument>('subscriptions', [
    { fields: ['customerId'] },
    { fields: ['subscriptionId'] },
  ]);
  // Documents written before a field existed read with its default.
  const complete = (doc: SubscriptionDocument | null): SubscriptionDocument | null => (doc === null ? null : { ...EMPTY_SUBSCRIPTION, ...doc });
  return {
    get: async (serverId) => complete(await collection.findOne({ _id: serverId })),
    byCustomer: async (customerId) => complete(await collection.findOne({ customerId })),
    bySubscription: async (subscriptionId) => complete(await collection.findOne({ subscriptionId })),
    async put(serverId, state) {
      const current = complete(await collection.findOne({ _id: serverId })) ?? { _id: serverId, ...EMPTY_SUBSCRIPTION, updatedAt: 0 };
      const next: SubscriptionDocument = { ...current, ...state, _id: serverId, updatedAt: Date.now() };
      const { _id, ...fields } = next;
      await collection.updateOne({ _id }, { $set: fields }, { upsert: true });
      return next;
    },
    endedCancellations: async (nowMs) => (await collection.find({ cancelAtPeriodEnd: true, currentPeriodEnd: { $lt: nowMs } })).map((doc) => complete(doc)!),
  };
}
