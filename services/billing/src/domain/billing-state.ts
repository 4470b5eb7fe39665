/**
 * Applies subscription states to billing's store and announces every tier or suspension change as
 * `server.tier-changed` / `server.suspension-changed` on the identity topic (billing is their one owner).
 * All writes of one process go through one queue (`serial`), so two webhooks about one server never
 * interleave their read-compare-publish steps.
 */
import { AUDIT_SYSTEM_ACTOR, ServerSuspensionChangedEvent, ServerTierChangedEvent, auditMessage, identityMessage, isTierKey } from '@skald/contracts';
import type { AuditAction, AuditEntryInput, TierKey } from '@skald/contracts';
import type { EventBus, PaymentSubscription, PublishInput } from '@skald/ports';
import type { IdentityReadModel } from '@skald/service-kit';
import { desiredState } from './subscription-state.ts';
import type { SubscriptionDocument, SubscriptionRepository } from './subscriptions.ts';

export interface BillingState {
  /** Runs `work` after every earlier call has finished (one at a time per process). */
  serial<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Stores the subscription's state for the server and publishes what changed. `eventCreated`: the Stripe
   * event's time (epoch s); a snapshot taken from an event (not fetched from Stripe) older than the stored
   * state is ignored.
   */
  applySubscription(serverId: string, sub: PaymentSubscription, options: { eventCreated: number; fetched: boolean }): Promise<SubscriptionDocument | null>;
  /** Sets the server's tier (publishing when it changes). */
  setTier(serverId: string, tier: TierKey): Promise<void>;
  /** Period-end sweep: subscriptions set to cancel whose period ended revert to free. */
  endCancelledPeriods(nowMs: number): Promise<number>;
}

export function createBillingState(deps: { bus: EventBus; directory: IdentityReadModel; subscriptions: SubscriptionRepository }): BillingState {
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

  /** An audit entry of a change the payment provider (or the period end) made: no person is the actor. */
  function systemAudit(serverId: string, action: AuditAction, details: AuditEntryInput['details']): PublishInput {
    return auditMessage({ ...AUDIT_SYSTEM_ACTOR, serverId, action, details, at: new Date().toISOString() });
  }

  /**
   * `audited`: the change comes from the subscription (Stripe or the period end), so its audit entries are
   * published with it; setTier's callers (staff, the operator command) publish their own.
   */
  async function publishChanges(
    serverId: string,
    doc: SubscriptionDocument | null,
    tier: TierKey | null,
    suspended: boolean | null,
    audited: { readonly extra?: readonly PublishInput[] } | null,
  ): Promise<void> {
    const messages: PublishInput[] = [...(audited?.extra ?? [])];
    const patch: { publishedTier?: TierKey; suspendedForPayment?: boolean } = {};
    const fromTier = await knownTier(serverId, doc);
    if (tier !== null && tier !== fromTier) {
      messages.push(identityMessage(ServerTierChangedEvent, { serverId, tier }));
      if (audited) messages.push(systemAudit(serverId, 'server.tier-changed', { from: fromTier, to: tier }));
      patch.publishedTier = tier;
    }
    if (suspended !== null && suspended !== (doc?.suspendedForPayment ?? false)) {
      messages.push(identityMessage(ServerSuspensionChangedEvent, { serverId, suspended }));
      if (audited) messages.push(systemAudit(serverId, 'server.suspension-changed', { suspended, reason: 'payment' }));
      patch.suspendedForPayment = suspended;
    }
    if (Object.keys(patch).length === 0 && messages.length === 0) return;
    // Publish, then record: should the publish fail, the webhook answers 500 and Stripe's retry publishes
    // again; should the record fail after the publish, the retry publishes the same values once more
    // (set-the-full-value facts: harmless).
    await deps.bus.publish(messages);
    await deps.subscriptions.put(serverId, patch);
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
      const desired = desiredState(sub);
      const statusChanged = stored.status !== (doc?.status ?? null);
      const extra = statusChanged ? [systemAudit(serverId, 'billing.subscription-changed', { status: stored.status, tier: stored.tier, cancelAtPeriodEnd: stored.cancelAtPeriodEnd })] : [];
      await publishChanges(serverId, stored, desired.tier, desired.suspendedForPayment, { extra });
      return deps.subscriptions.get(serverId);
    },
    async setTier(serverId, tier) {
      await publishChanges(serverId, await deps.subscriptions.get(serverId), tier, null, null);
    },
    async endCancelledPeriods(nowMs) {
      let ended = 0;
      for (const doc of await deps.subscriptions.endedCancellations(nowMs)) {
        await serial(async () => {
          const fresh = await deps.subscriptions.get(doc._id);
          if (!fresh?.cancelAtPeriodEnd || fresh.currentPeriodEnd === null || fresh.currentPeriodEnd >= nowMs) return;
          await deps.subscriptions.put(doc._id, { status: 'canceled', cancelAtPeriodEnd: false });
          await publishChanges(doc._id, fresh, 'free', false, { extra: [systemAudit(doc._id, 'billing.subscription-changed', { status: 'canceled', tier: fresh.tier, cancelAtPeriodEnd: false })] });
          ended += 1;
        });
      }
      return ended;
    },
  };
}
