/** Cases in their API shapes (@skald/contracts cases.ts): photo URLs signed for the case's own copies. */
import type { ApiLog, Case, CaseItem, CaseSummary } from '@skald/contracts';
import type { ImageUrlSigner } from '../image-url.ts';
import { toApiLog } from '../log-view.ts';
import type { CaseDocument, CaseLogDocument } from './case-store.ts';
import type { StoredCase } from './cases.ts';

export function toCaseSummary(doc: CaseDocument): CaseSummary {
  return { id: doc._id, title: doc.title, status: doc.status, createdBy: doc.createdBy, createdAt: new Date(doc.createdAt).toISOString(), itemCount: doc.entries.length };
}

export function toCaseLog(log: CaseLogDocument, signer: ImageUrlSigner, now: number): ApiLog {
  // Signed for the log's id and the case's key: the image route serves the copy, whatever became of the original.
  const { logId, receivedAt, ...fields } = log;
  return toApiLog({ ...fields, id: logId, ...(receivedAt === null ? {} : { receivedAt }) }, signer, now);
}

/** Each chosen log with its context, in the order they happened; a line missing from the copies is left out. */
export function caseItems(stored: StoredCase): { log: CaseLogDocument; before: CaseLogDocument[]; after: CaseLogDocument[] }[] {
  const pick = (ids: readonly string[]) => ids.map((id) => stored.logs.get(id)).filter((log): log is CaseLogDocument => log !== undefined);
  return stored.doc.entries.flatMap((entry) => {
    const log = stored.logs.get(entry.logId);
    return log === undefined ? [] : [{ log, before: pick(entry.before), after: pick(entry.after) }];
  });
}

export function toApiCase(stored: StoredCase, signer: ImageUrlSigner, now: number): Case {
  const { doc } = stored;
  const view = (log: CaseLogDocument) => toCaseLog(log, signer, now);
  const items: CaseItem[] = caseItems(stored).map((item) => ({ log: view(item.log), before: item.before.map(view), after: item.after.map(view) }));
  return {
    id: doc._id,
    serverId: doc.serverId,
    title: doc.title,
    notes: doc.notes,
    status: doc.status,
    createdBy: doc.createdBy,
    createdAt: new Date(doc.createdAt).toISOString(),
    updatedAt: new Date(doc.updatedAt).toISOString(),
    itemCount: doc.entries.length,
    bytes: doc.bytes,
    items,
  };
}
