/**
 * Evidence cases in the logs service's document store (docs/CASES.md): `cases` holds one document per case
 * (title, notes, status, the chosen logs and the ids of their context), `case_logs` one document per copied
 * log (its fields as they were, and the keys of the case's OWN copies of its photo). A case never reads the
 * log store again: retention and cleanups can remove the originals.
 *
 * A case is written in two steps: the case document first, `complete: false` (it takes one of the server's
 * numbered places, so the tier's count holds under concurrent creates, like saved searches), then its copies,
 * then `complete: true`. Lists and reads see complete cases only; a creation that failed removes what it
 * wrote, and one cut short by a crash is removed by the next creation on the server (staleIncomplete).
 */
import type { BaseDocument, Collection, DocumentStore } from '@skald/ports';
import type { CaseStatus } from '@skald/contracts';

/** One chosen log and its context, by id (the case_logs of the case). */
export interface CaseEntry {
  readonly logId: string;
  /** The chosen log's time: entries are kept in the order the logs happened. */
  readonly createdAt: number;
  readonly before: readonly string[];
  readonly after: readonly string[];
}

export interface CaseDocument extends BaseDocument {
  readonly serverId: string;
  /** 0 .. maxCases - 1 of the tier when the case was opened: unique per server. */
  readonly slot: number;
  readonly title: string;
  readonly notes: string;
  readonly status: CaseStatus;
  readonly createdBy: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly complete: boolean;
  /** Raised by every change: an addition of logs applies only over the version it read (compare-and-set). */
  readonly version: number;
  readonly entries: readonly CaseEntry[];
  /** Bytes of the case's copied photos and thumbnails. */
  readonly bytes: number;
}

/** A log as the case copied it. */
export interface CaseLogDocument extends BaseDocument {
  readonly caseId: string;
  readonly logId: string;
  readonly createdAt: number;
  readonly receivedAt: number | null;
  readonly level: string;
  readonly type: string;
  readonly resource: string;
  readonly message: string;
  readonly metadata: Readonly<Record<string, unknown>> | null;
  readonly logType: 'text' | 'photo';
  /** The case's own object keys (null: a text log, or a photo whose image was already gone when copied). */
  readonly imageKey: string | null;
  readonly thumbKey: string | null;
  readonly contentType: string | null;
  /** Bytes of this log's photo and thumbnail copies. */
  readonly bytes: number;
}

export interface CaseCollections {
  readonly cases: Collection<CaseDocument>;
  readonly logs: Collection<CaseLogDocument>;
}

export async function openCaseCollections(docs: DocumentStore): Promise<CaseCollections> {
  const cases = await docs.collection<CaseDocument>('cases', [{ fields: ['serverId', 'slot'], unique: true }, { fields: ['serverId', 'createdAt'] }]);
  const logs = await docs.collection<CaseLogDocument>('case_logs', [{ fields: ['caseId', 'createdAt'] }]);
  return { cases, logs };
}

/** Where a case's copies live in the object store: one prefix per case, removed with it. */
export function caseObjectPrefix(caseId: string): string {
  return `cases/${caseId}/`;
}

/** An incomplete case older than this was cut short (a creation takes seconds). */
export const STALE_INCOMPLETE_MS = 15 * 60_000;
