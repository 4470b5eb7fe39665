/**
 * A service's audit entries for changes its users make (logs: colours saved, logs deleted, export made;
 * billing: checkout started; any service with its own changes): one auditMessage per change, naming the
 * actor by the e-mail the service's identity read model last learnt from auth. Publish after the change is
 * stored; should the bus refuse it, the request fails with 500 while the change stays (the same known gap
 * as auth's events, docs/ARCHITECTURE.md "Known gaps").
 */
import { auditMessage } from '@skald/contracts';
import type { AuditAction, AuditEntryInput } from '@skald/contracts';
import type { EventBus } from '@skald/ports';
import type { IdentityReadModel } from './identity/read-model.ts';

export interface AuditPublisher {
  publish(entry: { readonly actorId: string; readonly serverId: string | null; readonly action: AuditAction; readonly details: AuditEntryInput['details'] }): Promise<void>;
}

export function createAuditPublisher(deps: { bus: EventBus; directory: Pick<IdentityReadModel, 'emailOf'>; now?: () => number }): AuditPublisher {
  const now = deps.now ?? Date.now;
  return {
    async publish(entry) {
      const actorEmail = (await deps.directory.emailOf(entry.actorId)) ?? '';
      await deps.bus.publish([auditMessage({ ...entry, actorEmail, at: new Date(now()).toISOString() })]);
    },
  };
}
