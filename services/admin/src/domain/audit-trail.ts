/**
 * The audit trail: every audit event of every service, stored once per event id, never changed
 * or deleted (append-only; retention in docs/AUDIT_AND_EXPORTS.md). One collection of
 * entries and one small collection of the users seen per server (the User filter's options, so listing
 * them never scans a server's whole trail).
 */
import { DuplicateKeyError } from '@skald/ports';
import type { BaseDocument, Collection, DocumentStore, Filter } from '@skald/ports';
import { isStaffAuditAction } from '@skald/contracts';
import type { AuditRecorded, AuditUser } from '@skald/contracts';
import { auditEntryRecord, createRecordingSequence } from '@skald/service-kit';
import type { AuditEntryRecord } from '@skald/service-kit';

export interface AuditEntryDocument extends BaseDocument, AuditEntryRecord {
  readonly _id: string;
  /** null: an account-level action (no server). */
  readonly serverId: string | null;
  /** A staff action (STAFF_AUDIT_ACTIONS): also listed by GET /admin/logs. */
  readonly staff: boolean;
}

interface AuditUserDocument extends BaseDocument {
  readonly serverId: string;
  readonly userId: string;
  readonly email: string;
}

export interface AuditFilter {
  readonly serverId: string;
  readonly userId?: string;
  readonly action?: string;
}

export interface AuditTrail {
  /** Stores the entry unless its event id is stored already; true when it was new. */
  record(eventId: string, entry: AuditRecorded): Promise<boolean>;
  /** Newest first (time, then id, descending). */
  page(filter: AuditFilter, offset: number, limit: number): Promise<{ entries: AuditEntryDocument[]; total: number }>;
  /** How many entries the server's trail holds. */
  countOf(serverId: string): Promise<number>;
  /** Every user who appears in the server's trail, by e-mail. */
  usersOf(serverId: string): Promise<AuditUser[]>;
  /** The newest staff actions, newest first. */
  staffActions(limit: number): Promise<AuditEntryDocument[]>;
}

const NEWEST_FIRST = { atMs: -1, seq: -1 } as const;

export async function createAuditTrail(docs: DocumentStore): Promise<AuditTrail> {
  const entries: Collection<AuditEntryDocument> = await docs.collection<AuditEntryDocument>('audit_entries', [
    { fields: ['serverId', 'atMs', 'seq'] },
    { fields: ['serverId', 'actorId', 'atMs', 'seq'] },
    { fields: ['serverId', 'action', 'atMs', 'seq'] },
    { fields: ['staff', 'atMs', 'seq'] },
  ]);
  const nextSeq = createRecordingSequence();
  const users: Collection<AuditUserDocument> = await docs.collection<AuditUserDocument>('audit_users', [{ fields: ['serverId'] }]);

  function serverFilter(filter: AuditFilter): Filter {
    return {
      serverId: filter.serverId,
      ...(filter.userId === undefined ? {} : { actorId: filter.userId }),
      ...(filter.action === undefined ? {} : { action: filter.action }),
    };
  }

  return {
    async record(eventId, entry) {
      let inserted = true;
      try {
        await entries.insertOne({ ...auditEntryRecord(eventId, entry, nextSeq()), serverId: entry.serverId, staff: isStaffAuditAction(entry.action) });
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        inserted = false;
      }
      if (entry.serverId !== null) {
        // Also on a redelivery: the first delivery may have stopped between the two writes. The e-mail
        // of the user's latest entry wins (an account's e-mail can change).
        await users.updateOne(
          { _id: JSON.stringify([entry.serverId, entry.actorId]) },
          { $set: { serverId: entry.serverId, userId: entry.actorId, email: entry.actorEmail } },
          { upsert: true },
        );
      }
      return inserted;
    },
    async page(filter, offset, limit) {
      const query = serverFilter(filter);
      const [page, total] = await Promise.all([entries.find(query, { sort: NEWEST_FIRST, skip: offset, limit }), entries.count(query)]);
      return { entries: page, total };
    },
    async countOf(serverId) {
      return entries.count({ serverId });
    },
    async usersOf(serverId) {
      const found = await users.find({ serverId });
      return found.map((u) => ({ id: u.userId, email: u.email })).sort((a, b) => a.email.localeCompare(b.email) || a.id.localeCompare(b.id));
    },
    async staffActions(limit) {
      return entries.find({ staff: true }, { sort: NEWEST_FIRST, limit });
    },
  };
}
