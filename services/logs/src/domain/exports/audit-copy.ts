/**
 * The logs service's copy of the audit entries, kept only to export them (docs/AUDIT_AND_EXPORTS.md): the audit trail itself is the admin service's; every export is served here, so the entries
 * an export needs come from the audit topic (a history topic: this copy starts from the first entry ever
 * published, whenever it is deployed) into this service's own store, never from admin's store or API.
 * Entries without a server (account actions) are not kept: no server's export holds them.
 */
import { DuplicateKeyError } from '@skald/ports';
import type { BaseDocument, Collection, DocumentStore, FieldOperators, Filter } from '@skald/ports';
import type { AuditRecorded } from '@skald/contracts';
import { auditEntryRecord, createRecordingSequence } from '@skald/service-kit';
import type { AuditEntryRecord } from '@skald/service-kit';

export interface AuditCopyDocument extends BaseDocument, AuditEntryRecord {
  readonly _id: string;
  readonly serverId: string;
}

export interface AuditCopy {
  record(eventId: string, entry: AuditRecorded): Promise<void>;
  /** The server's entries with atMs in [from, to] (inclusive, either open), newest first, in pages. */
  scan(serverId: string, range: { readonly from?: number; readonly to?: number }, pageSize: number): AsyncIterable<AuditCopyDocument[]>;
}

const NEWEST_FIRST = { atMs: -1, seq: -1 } as const;

export async function createAuditCopy(docs: DocumentStore): Promise<AuditCopy> {
  const entries: Collection<AuditCopyDocument> = await docs.collection<AuditCopyDocument>('audit_export_copy', [{ fields: ['serverId', 'atMs', 'seq'] }]);
  const nextSeq = createRecordingSequence();
  return {
    async record(eventId, entry) {
      if (entry.serverId === null) return;
      try {
        await entries.insertOne({ ...auditEntryRecord(eventId, entry, nextSeq()), serverId: entry.serverId });
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
    },
    async *scan(serverId, range, pageSize) {
      const atMs = (bounds: FieldOperators): Filter => (Object.keys(bounds).length === 0 ? {} : { atMs: bounds });
      const lower: FieldOperators = range.from === undefined ? {} : { $gte: range.from };
      let page = await entries.find({ serverId, ...atMs({ ...lower, ...(range.to === undefined ? {} : { $lte: range.to }) }) }, { sort: NEWEST_FIRST, limit: pageSize });
      while (page.length > 0) {
        yield page;
        if (page.length < pageSize) return;
        // Keyset after the last entry: the rest of its millisecond, then older ones (the document store's
        // filters have no OR, so the two ranges are two finds).
        const last = page[page.length - 1]!;
        const sameMs = await entries.find({ serverId, atMs: last.atMs, seq: { $lt: last.seq } }, { sort: NEWEST_FIRST, limit: pageSize });
        const older = sameMs.length < pageSize ? await entries.find({ serverId, ...atMs({ ...lower, $lt: last.atMs }) }, { sort: NEWEST_FIRST, limit: pageSize - sameMs.length }) : [];
        page = [...sameMs, ...older];
      }
    },
  };
}
