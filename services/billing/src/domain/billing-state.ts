/**
 * Applies subscription states and staff decisions to billing's store and announces every tier or
 * suspension change as `server.tier-changed` / `server.suspension-changed` on the identity topic (billing
 * is their one owner). All writes of one process go through one queue (`serial`), so two webhooks or a
 * webhook and a staff change about one server never interleave their read-compare-publish steps.
 *
 * Who wins when Stripe and staff disagree (docs/BILLING.md, "Staff changes"):
 *  - tier: a staff-set tier holds until Stripe asks for ANOTHER tier than the one it last asked for (a new
 *    subscription, a plan change, a cancellation taking effect); renewals and dunning do not undo it;
 *  - suspension: a staff suspension holds until staff lift it (payments never lift it); staff lifting a
 *    non-payment suspension holds until the subscription is paid again, then a new unpaid suspends again.
 */
import { BillingSubscriptionChangedEvent, ServerSuspensionChangedEvent, ServerTierChangedEvent, eventMessage, identityMessage, isTierKey } from '@skald/contracts';
import type { AuditAction, AuditEntryInput, BillingSubscriptionChanged, TierKey } from '@skald/contracts';
import type { EventBus, PaymentSubscription, PublishInput } from '@skald/ports';
import { SYSTEM_ACTOR } from '@skald/service-kit';
import type { AuditEntry, AuditPublisher, IdentityReadModel } from '@skald/service-kit';
import { desiredState } from './subscription-state.ts';
import type { Desired } from './subscription-state.ts';
import type { SubscriptionDocument, SubscriptionRepository, SubscriptionState } from './subscriptions.ts';

/** The person behind a staff change, named in its audit entry. */
export interface StaffActor {
  readonly id: string;
  readonly email: string;
}

/** A server's tier and suspension as billing has published them. */
export interface ServerBillingState {
  readonly tier: TierKey;
  readonly suspended: boolean;
}

export interface BillingState {
  /** Runs `work` after every earlier call has finished (one at a time per process). */
  serial<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Stores the subscription's state for the server and publishes what changed. `eventCreated`: the Stripe
   * event's time (epoch s); a snapshot taken from an event (not fetched from Stripe) older than the stored
   * state is ignored.
   */
  applySubscription(serverId: string, sub: PaymentSubscription, options: { eventCreated: number; fetched: boolean }): Promise<SubscriptionDocument | null>;
  /** Staff set the server's tier (serialised; publishes the change with its audit entry). */
  setStaffTier(serverId: string, tier: TierKey, actor: StaffActor): Promise<ServerBillingState>;
  /** Staff suspend (true) or lift every suspension (false) of the server; serialised, audited. */
  setStaffSuspension(serverId: string, suspended: boolean, actor: StaffActor): Promise<ServerBillingState>;
  /** Period-end sweep: subscriptions set to cancel whose period ended revert to free. */
  endCancelledPeriods(nowMs: number): Promise<number>;
}

/** The fields that decide the published tier and suspension. */
type Holds = Pick<SubscriptionState, 'stripeTier' | 'staffTier' | 'suspendedForPayment' | 'staffSuspended' | 'paymentSuspensionWaived'>;

const NO_HOLDS: Holds = { stripeTier: null, staffTier: null, suspendedForPayment: false, staffSuspended: false, paymentSuspensionWaived: false };

function holdsOf(doc: SubscriptionDocument | null): Holds {
  if (doc === null) return NO_HOLDS;
  const { stripeTier, staffTier, suspendedForPayment, staffSuspended, paymentSuspensionWaived } = doc;
  return { stripeTier, staffTier, suspendedForPayment, staffSuspended, paymentSuspensionWaived };
}

/** Billing suspends for either reason; it publishes the combined value. */
const isSuspended = (holds: Holds): boolean => holds.staffSuspended || holds.suspendedForPayment;

/** The tier Stripe's stored state asks for (a server whose state predates `stripeTier`). */
function storedStripeTier(doc: SubscriptionDocument | null): TierKey | null {
  if (doc === null) return null;
  if (doc.stripeTier !== null) return doc.stripeTier;
  return doc.status === null ? null : desiredState({ status: doc.status, tier: doc.tier }).tier;
}

/**
 * Stripe's desired state applied to the holds. The tier published is the staff tier while Stripe keeps
 * asking for the same tier, else Stripe's; null keeps the tier.
 */
function withStripe(doc: SubscriptionDocument | null, desired: Desired): { holds: Holds; tier: TierKey | null } {
  const current = holdsOf(doc);
  const next: { -readonly [K in keyof Holds]: Holds[K] } = { ...current };
  let tier: TierKey | null = null;
  if (desired.tier !== null) {
    if (desired.tier !== storedStripeTier(doc)) next.staffTier = null;
    next.stripeTier = desired.tier;
    tier = next.staffTier ?? desired.tier;
  }
  if (desired.suspendedForPayment === false) {
    next.suspendedForPayment = false;
    next.paymentSuspensionWaived = false;
  } else if (desired.suspendedForPayment === true && !current.paymentSuspensionWaived) {
    next.suspendedForPayment = true;
  }
  return { holds: next, tier };
}

/** How a change is audited: staff changes name their actor; the subscription's own changes are the system's. */
interface AuditOf {
  readonly staff?: (from: ServerBillingState, to: ServerBillingState) => AuditEntry;
  /** Entries published in the same batch (the subscription's status change). */
  readonly extra?: readonly PublishInput[];
}

/** The server's subscription as billing's own fact (TOPICS.billing), or null before it has one. */
function subscriptionFact(serverId: string, doc: SubscriptionDocument | null): BillingSubscriptionChanged | null {
  if (doc === null || doc.subscriptionId === null || doc.status === null) return null;
  return {
    serverId,
    subscriptionId: doc.subscriptionId,
    status: doc.status,
    paidTier: doc.tier,
    cancelAtPeriodEnd: doc.cancelAtPeriodEnd,
    currentPeriodEnd: doc.currentPeriodEnd === null ? null : new Date(doc.currentPeriodEnd).toISOString(),
  };
}

export function createBillingState(deps: { bus: EventBus; directory: IdentityReadModel; subscriptions: SubscriptionRepository; audit: AuditPublisher }): BillingState {
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  async function knownTier(serverId: string, doc: SubscriptionDocument | null): Promise<TierKey> {
    if (doc?.publishedTier) return doc.publishedTier;
    const server = await deps.directory.server(serverId);
    return server && isTierKey(server.tier) ? server.tier : 'free';
  }

  /**
   * Publishes the tier (when not null and different) and the suspension the holds give, and the stored
   * subscription on TOPICS.billing when it changed, then records the holds and what was published. `doc`
   * is the document as stored now (with a just-applied Stripe state). `audit.staff` builds a staff change's
   * audit entry; without it the change came from the subscription (Stripe, the period end) and is audited
   * with the system actor. Audit entries go in the same batch as the facts.
   */
  async function commit(
    serverId: string,
    doc: SubscriptionDocument | null,
    holds: Holds,
    tier: TierKey | null,
    audit: AuditOf = {},
  ): Promise<ServerBillingState> {
    const from: ServerBillingState = { tier: await knownTier(serverId, doc), suspended: isSuspended(holdsOf(doc)) };
    const to: ServerBillingState = { tier: tier ?? from.tier, suspended: isSuspended(holds) };
    const messages: PublishInput[] = [...(audit.extra ?? [])];
    if (to.tier !== from.tier) {
      messages.push(identityMessage(ServerTierChangedEvent, { serverId, tier: to.tier }));
      if (!audit.staff) messages.push(await systemAudit(serverId, 'server.tier-changed', { from: from.tier, to: to.tier }));
    }
    if (to.suspended !== from.suspended) {
      messages.push(identityMessage(ServerSuspensionChangedEvent, { serverId, suspended: to.suspended }));
      if (!audit.staff) messages.push(await systemAudit(serverId, 'server.suspension-changed', { suspended: to.suspended, reason: 'payment' }));
    }
    if ((to.tier !== from.tier || to.suspended !== from.suspended) && audit.staff) messages.push(await deps.audit.message(audit.staff(from, to)));
    // Billing's own fact: the subscription as stored, when it differs from the one last published.
    const fact = subscriptionFact(serverId, doc);
    const factJson = fact === null ? null : JSON.stringify(fact);
    if (fact !== null && factJson !== doc?.publishedFact) messages.push(eventMessage(BillingSubscriptionChangedEvent, serverId, fact));
    // Publish, then record: should the publish fail, the webhook answers 500 and Stripe's retry publishes
    // again (the holds are not recorded yet, so the retry still sees the change); should the record fail
    // after the publish, the retry publishes the same values once more (set-the-full-value facts: harmless).
    if (messages.length > 0) await deps.bus.publish(messages);
    const record: Partial<SubscriptionState> = { ...holds, ...(to.tier !== from.tier ? { publishedTier: to.tier } : {}), ...(factJson !== null ? { publishedFact: factJson } : {}) };
    const changed = Object.entries(record).some(([field, value]) => (doc as Record<string, unknown> | null)?.[field] !== value);
    if (changed || doc === null) await deps.subscriptions.put(serverId, record);
    return to;
  }

  function staffAudit(serverId: string, actor: StaffActor, action: AuditAction, details: Record<string, unknown>): AuditEntry {
    return { actorId: actor.id, actorEmail: actor.email, serverId, action, details: { ...details, by: 'staff' } };
  }

  /** An audit entry of a change the payment provider (or the period end) made: no person is the actor. */
  function systemAudit(serverId: string, action: AuditAction, details: AuditEntryInput['details']): Promise<PublishInput> {
    return deps.audit.message({ actorId: SYSTEM_ACTOR, serverId, action, details });
  }

  return {
    serial,
    async applySubscription(serverId, sub, { eventCreated, fetched }) {
      const doc = await deps.subscriptions.get(serverId);
      if (!fetched && doc && eventCreated < doc.stateAt) return null;
      // An event about another subscription than the server's current active one (an old one ending) is ignored.
      const current = doc?.subscriptionId ?? null;
      if (current !== null && current !== sub.id && (doc?.status === 'active' || doc?.status === 'trialing')) {
        if (sub.status !== 'active' && sub.status !== 'trialing') return null;
      }
      const stored = await deps.subscriptions.put(serverId, {
        subscriptionId: sub.id,
        ...(sub.customerId ? { customerId: sub.customerId } : {}),
        status: sub.status,
        tier: sub.tier !== null && isTierKey(sub.tier) ? sub.tier : (doc?.tier ?? null),
        cancelAtPeriodEnd: sub.status === 'canceled' ? false : sub.cancelAtPeriodEnd,
        currentPeriodEnd: sub.currentPeriodEnd,
        stateAt: Math.max(doc?.stateAt ?? 0, eventCreated),
      });
      // Stripe's tier compares against the document as it was (its stripeTier), not the status just stored.
      const { holds, tier } = withStripe(doc, desiredState(sub));
      const statusChanged = stored.status !== (doc?.status ?? null);
      const extra = statusChanged ? [await systemAudit(serverId, 'billing.subscription-changed', { status: stored.status, tier: stored.tier, cancelAtPeriodEnd: stored.cancelAtPeriodEnd })] : [];
      await commit(serverId, stored, holds, tier, { extra });
      return deps.subscriptions.get(serverId);
    },
    setStaffTier(serverId, tier, actor) {
      return serial(async () => {
        const doc = await deps.subscriptions.get(serverId);
        const holds: Holds = { ...holdsOf(doc), staffTier: tier, stripeTier: storedStripeTier(doc) };
        return commit(serverId, doc, holds, tier, { staff: (from, to) => staffAudit(serverId, actor, 'staff.tier-changed', { from: from.tier, to: to.tier }) });
      });
    },
    setStaffSuspension(serverId, suspended, actor) {
      return serial(async () => {
        const doc = await deps.subscriptions.get(serverId);
        const current = holdsOf(doc);
        const holds: Holds = suspended
          ? { ...current, staffSuspended: true }
          : {
              ...current,
              staffSuspended: false,
              suspendedForPayment: false,
              paymentSuspensionWaived: current.paymentSuspensionWaived || current.suspendedForPayment,
            };
        return commit(serverId, doc, holds, null, { staff: (from, to) => staffAudit(serverId, actor, 'staff.suspension-changed', { from: from.suspended, to: to.suspended }) });
      });
    },
    async endCancelledPeriods(nowMs) {
      let ended = 0;
      for (const doc of await deps.subscriptions.endedCancellations(nowMs)) {
        await serial(async () => {
          const fresh = await deps.subscriptions.get(doc._id);
          if (!fresh?.cancelAtPeriodEnd || fresh.currentPeriodEnd === null || fresh.currentPeriodEnd >= nowMs) return;
          const stored = await deps.subscriptions.put(doc._id, { status: 'canceled', cancelAtPeriodEnd: false });
          const { holds, tier } = withStripe(fresh, { tier: 'free', suspendedForPayment: false });
          const extra = [await systemAudit(doc._id, 'billing.subscription-changed', { status: 'canceled', tier: fresh.tier, cancelAtPeriodEnd: false })];
          await commit(doc._id, stored, holds, tier, { extra });
          ended += 1;
        });
      }
      return ended;
    },
  };
}
