/**
 * Evidence cases (docs/CASES.md): open one from chosen logs (each copied with CASE_LIMITS.contextLines of
 * context on each side, photos copied into the case's own object keys), list, read, change the title, notes
 * or status, delete (its copies with it). Counted per server against the tier's maxCases.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  CASE_LIMITS,
  CASE_NO_LOGS,
  CASE_NOTES_TOO_LONG,
  CASE_NOTHING_TO_CHANGE,
  CASE_TITLE_REQUIRED,
  CASE_TITLE_TOO_LONG,
  CASE_TOO_MANY_LOGS,
  CASE_CHANGED_MEANWHILE,
  CASE_CLOSED,
  CASE_FULL_OF_LOGS,
  caseUnknownLogs,
  casesFull,
} from '@skald/contracts';
import type { CaseStatus, Tier } from '@skald/contracts';
import { DuplicateKeyError } from '@skald/ports';
import type { DocumentStore, LogRecord, LogStore, ObjectStore } from '@skald/ports';
import { insertInFreeSlot } from '../bounded-slots.ts';
import { STALE_INCOMPLETE_MS, caseObjectPrefix, openCaseCollections } from './case-store.ts';
import type { CaseDocument, CaseEntry, CaseLogDocument } from './case-store.ts';

/**
 * Why nothing was written: a sentence for the person; 'invalid' is the request (400), 'full' the tier (403),
 * 'conflict' the case's state (409).
 */
export interface CaseRefusal {
  readonly refused: 'invalid' | 'full' | 'conflict';
  readonly message: string;
}

export interface CreateCaseInput {
  readonly serverId: string;
  readonly title: string;
  readonly notes?: string | undefined;
  readonly logIds: readonly string[];
  readonly createdBy: string;
  readonly tier: Tier;
  readonly now: number;
}

export interface CaseChange {
  readonly title?: string | undefined;
  readonly notes?: string | undefined;
  readonly status?: CaseStatus | undefined;
}

/** A complete case and its copied logs (by log id). */
export interface StoredCase {
  readonly doc: CaseDocument;
  readonly logs: ReadonlyMap<string, CaseLogDocument>;
}

export interface Cases {
  /** The server's complete cases, newest first. */
  list(serverId: string): Promise<CaseDocument[]>;
  /** A complete case (any server: the caller checks access from its serverId), or null. */
  find(id: string): Promise<CaseDocument | null>;
  /** The case with its copied logs. */
  read(id: string): Promise<StoredCase | null>;
  create(input: CreateCaseInput): Promise<StoredCase | CaseRefusal>;
  /** More chosen logs (with their context) into an open case; ids already chosen are ignored. Null: no such case. */
  addLogs(id: string, logIds: readonly string[], now: number): Promise<{ stored: StoredCase; added: string[] } | CaseRefusal | null>;
  update(id: string, change: CaseChange, now: number): Promise<CaseDocument | CaseRefusal | null>;
  /** True when it was there; its copied logs and photos go with it. */
  remove(id: string): Promise<boolean>;
  /** Bytes the server's cases hold (their photo copies). */
  bytesOf(serverId: string): Promise<number>;
}

export interface CasesDeps {
  readonly docs: DocumentStore;
  readonly logStore: LogStore;
  readonly objects: ObjectStore;
}

/** Photos copied at once: enough to overlap the object store's latency, few enough to bound memory. */
const COPY_CONCURRENCY = 4;

export function normaliseTitle(title: string): { title: string } | CaseRefusal {
  const trimmed = title.trim();
  if (trimmed === '') return { refused: 'invalid', message: CASE_TITLE_REQUIRED };
  // Counted in characters as a person sees them (an emoji is one), not UTF-16 units.
  if ([...trimmed].length > CASE_LIMITS.maxTitleLength) return { refused: 'invalid', message: CASE_TITLE_TOO_LONG };
  return { title: trimmed };
}

function checkNotes(notes: string): CaseRefusal | null {
  return [...notes].length > CASE_LIMITS.maxNotesLength ? { refused: 'invalid', message: CASE_NOTES_TOO_LONG } : null;
}

const EXTENSIONS: Readonly<Record<string, string>> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

/** Runs `work` over the items, at most `limit` at a time; the first failure is thrown once all settled. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      try {
        await work(items[index]!, index);
      } catch (error) {
        errors.push(error);
        next = items.length;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (errors.length > 0) throw errors[0];
}

export async function createCases(deps: CasesDeps): Promise<Cases> {
  const { cases, logs } = await openCaseCollections(deps.docs);

  async function removeCopies(caseId: string): Promise<void> {
    const objects = await deps.objects.list(caseObjectPrefix(caseId));
    if (objects.length > 0) await deps.objects.delete(objects.map((o) => o.key));
    await logs.deleteMany({ caseId });
  }

  async function removeCase(caseId: string): Promise<boolean> {
    // The document last: while it is there, a retry of the removal finds what is left.
    await removeCopies(caseId);
    return (await cases.deleteOne({ _id: caseId })) > 0;
  }

  /** Cases of the server whose creation was cut short (a crash): their place and copies are given back. */
  async function removeStale(serverId: string, now: number): Promise<void> {
    const stale = await cases.find({ serverId, complete: false, createdAt: { $lt: now - STALE_INCOMPLETE_MS } });
    for (const doc of stale) await removeCase(doc._id);
  }

  /** Takes a free place of the server under the tier's count, or says the tier is full. */
  async function reserve(input: CreateCaseInput, title: string, notes: string): Promise<CaseDocument | CaseRefusal> {
    const max = input.tier.maxCases;
    const reserved = await insertInFreeSlot({
      max,
      held: () => cases.find({ serverId: input.serverId }),
      insert: async (slot) => {
        const doc: CaseDocument = {
          _id: randomUUID(),
          serverId: input.serverId,
          slot,
          title,
          notes,
          status: 'open',
          createdBy: input.createdBy,
          createdAt: input.now,
          updatedAt: input.now,
          complete: false,
          version: 0,
          entries: [],
          bytes: 0,
        };
        await cases.insertOne(doc);
        return doc;
      },
    });
    return reserved ?? { refused: 'full', message: casesFull(max, input.tier.label) };
  }

  /** The chosen logs of the server, or the sentence naming the ids it has none for. */
  async function lookUp(serverId: string, ids: readonly string[]): Promise<LogRecord[] | CaseRefusal> {
    const found = await Promise.all(ids.map((id) => deps.logStore.getById(serverId, id)));
    const unknown = ids.filter((_id, i) => found[i] === null);
    if (unknown.length > 0) return { refused: 'invalid', message: caseUnknownLogs(unknown) };
    return found as LogRecord[];
  }

  /** The chosen logs' context, each log once (a line can be context of two chosen logs). */
  async function gather(serverId: string, chosen: readonly LogRecord[]): Promise<{ entries: CaseEntry[]; records: Map<string, LogRecord> }> {
    const records = new Map<string, LogRecord>();
    const entries: CaseEntry[] = [];
    for (const log of chosen) {
      const key = { createdAt: log.createdAt, id: log.id };
      const [older, newer] = await Promise.all([
        deps.logStore.neighbours(serverId, key, 'older', CASE_LIMITS.contextLines),
        deps.logStore.neighbours(serverId, key, 'newer', CASE_LIMITS.contextLines),
      ]);
      const before = older.reverse();
      for (const record of [...before, log, ...newer]) records.set(record.id, record);
      entries.push({ logId: log.id, createdAt: log.createdAt, before: before.map((r) => r.id), after: newer.map((r) => r.id) });
    }
    return { entries, records };
  }

  /** Copies one stored object into the case; null when the original is gone (removed meanwhile). */
  async function copyObject(sourceKey: string | null, targetKey: string): Promise<{ key: string; size: number; contentType: string } | null> {
    if (sourceKey === null) return null;
    const source = await deps.objects.get(sourceKey);
    if (source === null) return null;
    const key = `${targetKey}.${EXTENSIONS[source.contentType] ?? 'bin'}`;
    try {
      const stored = await deps.objects.put(key, source.body, source.contentType);
      return { key, size: stored.size, contentType: source.contentType };
    } finally {
      // A put that failed before reading to the end leaves the source's file handle open: close it now, not at GC.
      source.body.destroy();
    }
  }

  /**
   * Copies the logs the case does not hold yet. Object keys derive from the log id, so a copy repeated (a
   * retry, two concurrent additions) writes the same key with the same bytes instead of a second object.
   */
  async function copyLogs(caseId: string, records: readonly LogRecord[], held: ReadonlySet<string>): Promise<string[]> {
    const inserted: string[] = [];
    const fresh = records.filter((record) => !held.has(record.id));
    await eachLimited(fresh, COPY_CONCURRENCY, async (record) => {
      const base = `${caseObjectPrefix(caseId)}${createHash('sha256').update(record.id).digest('hex').slice(0, 32)}`;
      const image = record.logType === 'photo' ? await copyObject(record.imageKey, `${base}-full`) : null;
      const thumb = record.logType === 'photo' ? await copyObject(record.thumbKey, `${base}-thumb`) : null;
      const doc: CaseLogDocument = {
        _id: `${caseId}:${record.id}`,
        caseId,
        logId: record.id,
        createdAt: record.createdAt,
        receivedAt: record.receivedAt ?? null,
        level: record.level,
        type: record.type,
        resource: record.resource,
        message: record.message,
        metadata: record.metadata,
        logType: record.logType,
        imageKey: image?.key ?? null,
        thumbKey: thumb?.key ?? null,
        contentType: image?.contentType ?? null,
        bytes: (image?.size ?? 0) + (thumb?.size ?? 0),
      };
      try {
        await logs.insertOne(doc);
        inserted.push(doc._id);
      } catch (error) {
        // Copied meanwhile by a concurrent addition: the same log, the same keys.
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
    });
    return inserted;
  }

  async function readLogs(caseId: string): Promise<Map<string, CaseLogDocument>> {
    const found = await logs.find({ caseId }, { sort: { createdAt: 1 } });
    return new Map(found.map((doc) => [doc.logId, doc]));
  }

  const bytesIn = (copied: ReadonlyMap<string, CaseLogDocument>): number => [...copied.values()].reduce((sum, doc) => sum + doc.bytes, 0);

  function checkIds(logIds: readonly string[]): string[] | CaseRefusal {
    const ids = [...new Set(logIds)];
    if (ids.length === 0) return { refused: 'invalid', message: CASE_NO_LOGS };
    if (ids.length > CASE_LIMITS.maxLogIds) return { refused: 'invalid', message: CASE_TOO_MANY_LOGS };
    return ids;
  }

  return {
    async list(serverId) {
      return cases.find({ serverId, complete: true }, { sort: { createdAt: -1 } });
    },

    async find(id) {
      const doc = await cases.findOne({ _id: id });
      return doc !== null && doc.complete ? doc : null;
    },

    async read(id) {
      const doc = await cases.findOne({ _id: id });
      if (doc === null || !doc.complete) return null;
      return { doc, logs: await readLogs(id) };
    },

    async create(input) {
      const named = normaliseTitle(input.title);
      if ('refused' in named) return named;
      const notes = input.notes ?? '';
      const notesRefusal = checkNotes(notes);
      if (notesRefusal) return notesRefusal;
      const ids = checkIds(input.logIds);
      if ('refused' in ids) return ids;
      const chosen = await lookUp(input.serverId, ids);
      if ('refused' in chosen) return chosen;

      await removeStale(input.serverId, input.now);
      const reserved = await reserve(input, named.title, notes);
      if ('refused' in reserved) return reserved;
      try {
        const { entries, records } = await gather(input.serverId, chosen);
        await copyLogs(reserved._id, [...records.values()], new Set());
        const copied = await readLogs(reserved._id);
        const done = await cases.findOneAndUpdate(
          { _id: reserved._id },
          { $set: { complete: true, entries: entries.sort(compareEntries), bytes: bytesIn(copied) }, $inc: { version: 1 } },
        );
        if (done === null) throw new Error('the case being opened was removed meanwhile');
        return { doc: done, logs: copied };
      } catch (error) {
        await removeCase(reserved._id).catch(() => undefined);
        throw error;
      }
    },

    async addLogs(id, logIds, now) {
      const doc = await cases.findOne({ _id: id });
      if (doc === null || !doc.complete) return null;
      if (doc.status !== 'open') return { refused: 'conflict', message: CASE_CLOSED };
      const ids = checkIds(logIds);
      if ('refused' in ids) return ids;
      const chosenAlready = new Set(doc.entries.map((entry) => entry.logId));
      const wanted = ids.filter((logId) => !chosenAlready.has(logId));
      if (chosenAlready.size + wanted.length > CASE_LIMITS.maxLogIds) return { refused: 'invalid', message: CASE_FULL_OF_LOGS };
      if (wanted.length === 0) return { stored: { doc, logs: await readLogs(id) }, added: [] };
      const chosen = await lookUp(doc.serverId, wanted);
      if ('refused' in chosen) return chosen;

      const held = new Set((await readLogs(id)).keys());
      const { entries, records } = await gather(doc.serverId, chosen);
      const inserted = await copyLogs(id, [...records.values()], held);
      const copied = await readLogs(id);
      // Compare-and-set on the version: an addition or change that landed meanwhile is not overwritten.
      const done = await cases.findOneAndUpdate(
        { _id: id, version: doc.version, status: 'open' },
        { $set: { entries: [...doc.entries, ...entries].sort(compareEntries), bytes: bytesIn(copied), updatedAt: now }, $inc: { version: 1 } },
      );
      if (done === null) {
        // Only the copies this call made and nobody chose: the case reads as before.
        const objects = inserted.map((docId) => copied.get(docId.slice(id.length + 1))).flatMap((log) => [log?.imageKey, log?.thumbKey]);
        await deps.objects.delete(objects.filter((key): key is string => typeof key === 'string'));
        for (const docId of inserted) await logs.deleteOne({ _id: docId });
        return { refused: 'conflict', message: CASE_CHANGED_MEANWHILE };
      }
      return { stored: { doc: done, logs: copied }, added: wanted };
    },

    async update(id, change, now) {
      const set: Record<string, unknown> = {};
      if (change.title !== undefined) {
        const named = normaliseTitle(change.title);
        if ('refused' in named) return named;
        set['title'] = named.title;
      }
      if (change.notes !== undefined) {
        const refusal = checkNotes(change.notes);
        if (refusal) return refusal;
        set['notes'] = change.notes;
      }
      if (change.status !== undefined) set['status'] = change.status;
      if (Object.keys(set).length === 0) return { refused: 'invalid', message: CASE_NOTHING_TO_CHANGE };
      return cases.findOneAndUpdate({ _id: id, complete: true }, { $set: { ...set, updatedAt: now }, $inc: { version: 1 } });
    },

    async remove(id) {
      return removeCase(id);
    },

    async bytesOf(serverId) {
      const all = await cases.find({ serverId });
      return all.reduce((sum, doc) => sum + doc.bytes, 0);
    },
  };
}

/** Chosen logs in the order they happened (ties in one millisecond by id), the order of every list. */
function compareEntries(a: CaseEntry, b: CaseEntry): number {
  return a.createdAt - b.createdAt || (a.logId < b.logId ? -1 : a.logId > b.logId ? 1 : 0);
}
