/**
 * The audit trail (issue 14): every audit event of every service, stored once per event id, never changed
 * or deleted (append-only; retention in docs/ARCHITECTURE.md "Audit trail and exports"). One collection of
 * entries and one small collection of the users seen per server (the User filter's options, so listing
 * them never scans a server's whole trail).
 */
import { DuplicateKeyError } from '@skald/ports';
import type { BaseDocument, Collection, DocumentStore, Filter } from '@skald/ports';
import { isStaffAuditAction } from '@skald/contracts';
import type { AuditRecorded, AuditUser } from '@skald/contracts';

export interface AuditEntryDocument extends BaseDocument {
  /** The audit event's id: a redelivered event is stored once. */
  readonly _id: string;
  readonly serverId: string | null;
  readonly actorId: string;
  readonly actorEmail: string;
  readonly action: string;
  readonly details: string | Record<string, unknown>;
  /** ISO 8601 as published. */
  readonly at: string;
  /** Epoch ms of `at`: the sort key. */
  readonly atMs: number;
  /**
   * Order of recording (strictly increasing in a process, about µs since the epoch): breaks ties between
   * entries of one millisecond (one change publishing several entries at once) in the order they were
   * published, since one server's entries arrive in publish order.
   */
  readonly seq: number;
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

/** Strictly increasing numbers close to the wall clock in µs (safe integers until the year 2255). */
export function createSequence(now: () => number = Date.now): () => number {
  let last = 0;
  return () => {
    last = Math.max(now() * 1000, last + 1);
    return last;
  };
}

export async function createAuditTrail(docs: DocumentStore): Promise<AuditTrail> {
  const entries: Collection<AuditEntryDocument> = await docs.collection<AuditEntryDocument>('audit_entries', [
    { fields: ['serverId', 'atMs', 'seq'] },
    { fields: ['serverId', 'actorId', 'atMs', 'seq'] },
    { fields: ['serverId', 'action', 'atMs', 'seq'] },
    { fields: ['staff', 'atMs', 'seq'] },
  ]);
  const nextSeq = createSequence();
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
      const atMs = Date.parse(entry.at);
      let inserted = true;
      try {
        await entries.insertOne({
          _id: eventId,
          serverId: entry.serverId,
          actorId: entry.actorId,
          actorEmail: entry.actorEmail,
          action: entry.action,
          details: entry.details,
          at: entry.at,
          atMs: Number.isFinite(atMs) ? atMs : 0,
          seq: nextSeq(),
          staff: isStaffAuditAction(entry.action),
        });
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
