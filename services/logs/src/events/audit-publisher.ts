/**
 * The logs service's audit entries (colours saved, logs deleted, export made): one auditMessage per change,
 * naming the actor by the e-mail the identity read model last learnt from auth. Published after the change
 * is stored; should the bus refuse it, the request fails with 500 while the change stays (the same known gap
 * as auth's events, docs/ARCHITECTURE.md "Known gaps").
 */
import { auditMessage } from '@skald/contracts';
import type { AuditAction, AuditEntryInput } from '@skald/contracts';
import type { EventBus } from '@skald/ports';
import type { IdentityReadModel } from '@skald/service-kit';

export interface AuditPublisher {
  publish(entry: { readonly actorId: string; readonly serverId: string; readonly action: AuditAction; readonly details: AuditEntryInput['details'] }): Promise<void>;
}

export function createAuditPublisher(deps: { bus: EventBus; directory: Pick<IdentityReadModel, 'emailOf'>; now: () => number }): AuditPublisher {
  return {
    async publish(entry) {
      const actorEmail = (await deps.directory.emailOf(entry.actorId)) ?? '';
      await deps.bus.publish([auditMessage({ ...entry, actorEmail, at: new Date(deps.now()).toISOString() })]);
    },
  };
}
