/**
 * What a stored copy of an audit entry keeps (admin's trail and logs' export copy are two stores of the same
 * events, docs/AUDIT_AND_EXPORTS.md): the event's fields, its time as epoch ms (the
 * sort key) and the order of recording, which breaks ties between entries of one millisecond (one change
 * publishing several entries at once) in publish order, since one server's entries arrive in publish order.
 */
import type { AuditRecorded } from '@skald/contracts';

export interface AuditEntryRecord {
  /** The audit event's id: a redelivered event is stored once. */
  readonly _id: string;
  readonly actorId: string;
  readonly actorEmail: string;
  readonly action: string;
  readonly details: string | Record<string, unknown>;
  /** ISO 8601 as published. */
  readonly at: string;
  /** Epoch ms of `at` (0 if it does not parse): the sort key. */
  readonly atMs: number;
  /** Order of recording: strictly increasing in a process, about µs since the epoch. */
  readonly seq: number;
}

/** Strictly increasing numbers close to the wall clock in µs (safe integers until the year 2255). */
export function createRecordingSequence(now: () => number = Date.now): () => number {
  let last = 0;
  return () => {
    last = Math.max(now() * 1000, last + 1);
    return last;
  };
}

/** The stored fields of an audit event (the caller adds its own: serverId, flags). */
export function auditEntryRecord(eventId: string, entry: AuditRecorded, seq: number): AuditEntryRecord {
  const atMs = Date.parse(entry.at);
  return {
    _id: eventId,
    actorId: entry.actorId,
    actorEmail: entry.actorEmail,
    action: entry.action,
    details: entry.details,
    at: entry.at,
    atMs: Number.isFinite(atMs) ? atMs : 0,
    seq,
  };
}
