/**
 * The one audit recorder of every service: one auditMessage per change, naming the actor by the e-mail the
 * service's identity read model last learnt from auth. The actor is a user id, or SYSTEM_ACTOR for a change
 * no person made (the backup schedule, the payment provider, the billing period end): its entry names
 * AUDIT_SYSTEM_ACTOR. An actor whose e-mail the caller already holds (staff acting through billing) passes
 * it as `actorEmail`, and no lookup is made.
 *
 * Publish after the change is stored; should the bus refuse it, the request fails with 500 while the change
 * stays (the same known gap as auth's events, docs/ARCHITECTURE.md "Known gaps"). A change whose entry
 * must go out in one batch with its facts takes the message (`message`) and publishes it itself.
 */
import { AUDIT_SYSTEM_ACTOR, auditMessage } from '@skald/contracts';
import type { AuditAction, AuditEntryInput } from '@skald/contracts';
import type { EventBus, PublishInput } from '@skald/ports';
import type { IdentityReadModel } from './identity/read-model.ts';

/** The actor of a change no person made. */
export const SYSTEM_ACTOR = AUDIT_SYSTEM_ACTOR.actorId;

export interface AuditEntry {
  /** A user id, or SYSTEM_ACTOR. */
  readonly actorId: string;
  /** The actor's e-mail when the caller knows it (else read from the identity read model). */
  readonly actorEmail?: string;
  readonly serverId: string | null;
  readonly action: AuditAction;
  readonly details: AuditEntryInput['details'];
}

export interface AuditPublisher {
  /** Publishes the entry on the audit topic. */
  publish(entry: AuditEntry): Promise<void>;
  /** The entry as a bus message, for a change that publishes it in one batch with its facts. */
  message(entry: AuditEntry): Promise<PublishInput>;
}

export function createAuditPublisher(deps: { bus: EventBus; directory: Pick<IdentityReadModel, 'emailOf'>; now?: () => number }): AuditPublisher {
  const now = deps.now ?? Date.now;
  async function message(entry: AuditEntry): Promise<PublishInput> {
    const { actorId, actorEmail, serverId, action, details } = entry;
    const at = new Date(now()).toISOString();
    if (actorId === SYSTEM_ACTOR) return auditMessage({ ...AUDIT_SYSTEM_ACTOR, serverId, action, details, at });
    const email = actorEmail ?? (await deps.directory.emailOf(actorId)) ?? '';
    return auditMessage({ actorId, actorEmail: email, serverId, action, details, at });
  }
  return {
    message,
    async publish(entry) {
      await deps.bus.publish([await message(entry)]);
    },
  };
}
