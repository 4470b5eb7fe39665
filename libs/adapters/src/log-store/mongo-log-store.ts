/**
 * MongoDB log store (mongodb 7 driver, writeConcern majority).
 *
 * - `logs`: one document per log, `_id` = ingestion id (idempotency), lower-cased copies of
 *   level/type/resource for case-insensitive equality, `metadataText` (the JSON) for search.
 * - `log_rollup_days` / `log_rollup_dims`: the same rollups as the SQLite adapter, maintained with
 *   $inc upserts after each insert and decremented on every delete path.
 * - No TTL index: expiry goes through deleteExpired so that rollups and photo object keys follow.
 *
 * Without multi-document transactions the log write and the rollup $inc are two writes: a crash
 * between them leaves rollups off by that batch (documented in docs/DOCUMENT_STORE.md).
 */
import { MongoBulkWriteError, MongoClient, MongoServerError } from 'mongodb';
import type { AnyBulkWriteOperation, Collection, Db, Document, Filter, Sort } from 'mongodb';
import type { DeleteResult, LogHistogram, LogKey, LogMatchSpan, LogPage, LogQuery, LogRecord, LogScanQuery, LogStats, LogStore, LogType, NeighbourDirection } from '@skald/ports';
import { EMPTY_HISTOGRAM, HistogramCounts, combineSpans, countedRange, validateHistogramEdges } from './log-histogram-shared.ts';
import {
  DAY_MS,
  DEFAULT_COUNT_CAP,
  StatsBuilder,
  assertLogType,
  cappedTotal,
  dayString,
  epochDay,
  isDayAligned,
  parseDay,
  present,
  validateLogQuery,
  validateNeighbours,
  validateScanPageSize,
} from './log-store-shared.ts';

const DUPLICATE_KEY = 11000;
const DIMS = ['level', 'type', 'resource'] as const;
type DimName = (typeof DIMS)[number];

interface LogDoc {
  _id: string;
  serverId: string;
  createdAt: number;
  level: string;
  levelLc: string;
  type: string;
  typeLc: string;
  resource: string;
  resourceLc: string;
  message: string;
  metadata: Record<string, unknown> | null;
  metadataText: string;
  logType: LogType;
  imageKey: string | null;
  thumbKey: string | null;
  expiresAt: number;
  /** Arrival, set only when it differs from createdAt (documents without it were received at createdAt). */
  receivedAt?: number;
}

interface DayRollup {
  _id: string;
  serverId: string;
  day: number;
  logType: string;
  n: number;
}

interface DimRollup {
  _id: string;
  serverId: string;
  dim: DimName;
  value: string;
  valueLc: string;
  logType: string;
  n: number;
}

const NEWEST_FIRST: Sort = { createdAt: -1, _id: -1 };
const OLDEST_FIRST: Sort = { createdAt: 1, _id: 1 };

/** The server's logs with these keys: the id finds the document (_id), its time must match too, as on SQLite. */
function byKeys(serverId: string, keys: readonly LogKey[]): Filter<LogDoc> {
  return { serverId, _id: { $in: keys.map((key) => key.id) }, $or: keys.map((key) => ({ _id: key.id, createdAt: key.createdAt })) };
}

function toDoc(r: LogRecord): LogDoc {
  const doc: LogDoc = {
    _id: r.id,
    serverId: r.serverId,
    createdAt: r.createdAt,
    level: r.level,
    levelLc: r.level.toLowerCase(),
    type: r.type,
    typeLc: r.type.toLowerCase(),
    resource: r.resource,
    resourceLc: r.resource.toLowerCase(),
    message: r.message,
    metadata: r.metadata === null ? null : { ...r.metadata },
    metadataText: r.metadata === null ? '' : JSON.stringify(r.metadata),
    logType: r.logType,
    imageKey: r.imageKey,
    thumbKey: r.thumbKey,
    expiresAt: r.expiresAt,
  };
  if (r.receivedAt !== undefined && r.receivedAt !== r.createdAt) doc.receivedAt = r.receivedAt;
  return doc;
}

function toRecord(d: LogDoc): LogRecord {
  const record: { -readonly [K in keyof LogRecord]: LogRecord[K] } = {
    id: d._id,
    serverId: d.serverId,
    createdAt: d.createdAt,
    level: d.level,
    type: d.type,
    resource: d.resource,
    message: d.message,
    metadata: d.metadata,
    logType: d.logType,
    imageKey: d.imageKey,
    thumbKey: d.thumbKey,
    expiresAt: d.expiresAt,
  };
  if (typeof d.receivedAt === 'number') record.receivedAt = d.receivedAt;
  return record;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Accumulates rollup deltas for a set of logs and turns them into one bulkWrite per collection. */
class RollupDelta {
  readonly days = new Map<string, Omit<DayRollup, 'n'> & { n: number }>();
  readonly dims = new Map<string, Omit<DimRollup, 'n'> & { n: number }>();

  add(d: Pick<LogDoc, 'serverId' | 'createdAt' | 'logType' | 'level' | 'type' | 'resource'>, by: number): void {
    const day = epochDay(d.createdAt);
    const dayId = `${d.serverId}|${day}|${d.logType}`;
    const dayEntry = this.days.get(dayId);
    if (dayEntry === undefined) this.days.set(dayId, { _id: dayId, serverId: d.serverId, day, logType: d.logType, n: by });
    else dayEntry.n += by;
    for (const dim of DIMS) {
      const value = d[dim];
      const valueLc = value.toLowerCase();
      const id = `${d.serverId}|${dim}|${d.logType}|${valueLc}`;
      const entry = this.dims.get(id);
      if (entry === undefined) this.dims.set(id, { _id: id, serverId: d.serverId, dim, value, valueLc, logType: d.logType, n: by });
      else entry.n += by;
    }
  }

  async apply(days: Collection<DayRollup>, dims: Collection<DimRollup>): Promise<void> {
    const dayOps: AnyBulkWriteOperation<DayRollup>[] = [...this.days.values()].map(({ _id, n, ...rest }) => ({
      updateOne: { filter: { _id }, update: { $inc: { n }, $setOnInsert: rest }, upsert: true },
    }));
    const dimOps: AnyBulkWriteOperation<DimRollup>[] = [...this.dims.values()].map(({ _id, n, ...rest }) => ({
      updateOne: { filter: { _id }, update: { $inc: { n }, $setOnInsert: rest }, upsert: true },
    }));
    if (dayOps.length > 0) await days.bulkWrite(dayOps, { ordered: false });
    if (dimOps.length > 0) await dims.bulkWrite(dimOps, { ordered: false });
  }
}

/** WiredTiger's per-collection setting for zstd-compressed blocks. */
export const ZSTD_BLOCKS = 'block_compressor=zstd';
/** MongoDB's error code for a createCollection of a name that exists. */
const NAMESPACE_EXISTS = 48;

export interface MongoLogStoreOptions {
  readonly countCap?: number;
  readonly deleteChunkSize?: number;
}

export class MongoLogStore implements LogStore {
  readonly #client: MongoClient;
  readonly #db: Db;
  readonly #logs: Collection<LogDoc>;
  readonly #days: Collection<DayRollup>;
  readonly #dims: Collection<DimRollup>;
  readonly #countCap: number;
  readonly #chunk: number;

  constructor(url: string, database: string, options: MongoLogStoreOptions = {}) {
    this.#client = new MongoClient(url, { writeConcern: { w: 'majority' }, serverSelectionTimeoutMS: 10_000 });
    this.#db = this.#client.db(database);
    this.#logs = this.#db.collection<LogDoc>('logs');
    this.#days = this.#db.collection<DayRollup>('log_rollup_days');
    this.#dims = this.#db.collection<DimRollup>('log_rollup_dims');
    this.#countCap = options.countCap ?? DEFAULT_COUNT_CAP;
    this.#chunk = options.deleteChunkSize ?? 5_000;
  }

  /**
   * Creates the collections that do not exist yet with WiredTiger's zstd block compressor instead of the default
   * snappy (log text compresses ~1.5-2x better with it, docs/STORAGE.md). A collection that exists keeps the
   * compressor it was created with: MongoDB cannot change it in place (a data folder moves by dump and restore).
   */
  async #createCompressed(names: readonly string[]): Promise<void> {
    const existing = new Set((await this.#db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
    for (const name of names) {
      if (existing.has(name)) continue;
      try {
        await this.#db.createCollection(name, { storageEngine: { wiredTiger: { configString: ZSTD_BLOCKS } } });
      } catch (error) {
        // Created meanwhile by another instance starting at the same time.
        if (!(error instanceof MongoServerError && error.code === NAMESPACE_EXISTS)) throw error;
      }
    }
  }

  /** Same access paths as the SQLite indexes (see sqlite-log-schema.ts). */
  async ensureIndexes(): Promise<void> {
    await this.#createCompressed(['logs', 'log_rollup_days', 'log_rollup_dims']);
    await this.#logs.createIndexes([
      { key: { serverId: 1, createdAt: -1, _id: -1 }, name: 'server_time' },
      { key: { serverId: 1, levelLc: 1, createdAt: -1 }, name: 'server_level' },
      { key: { serverId: 1, typeLc: 1, createdAt: -1 }, name: 'server_type' },
      { key: { serverId: 1, resourceLc: 1, createdAt: -1 }, name: 'server_resource' },
      { key: { serverId: 1, logType: 1, createdAt: -1, _id: -1 }, name: 'server_logtype' },
      { key: { expiresAt: 1 }, name: 'expires' },
    ]);
    await this.#days.createIndex({ serverId: 1, day: 1 }, { name: 'server_day' });
    await this.#dims.createIndex({ serverId: 1, dim: 1, valueLc: 1 }, { name: 'server_dim' });
  }

  async insertBatch(records: readonly LogRecord[]): Promise<{ inserted: number }> {
    if (records.length === 0) return { inserted: 0 };
    const docs = records.map(toDoc);
    const failed = new Set<number>();
    try {
      await this.#logs.insertMany(docs, { ordered: false });
    } catch (err) {
      if (!(err instanceof MongoBulkWriteError)) throw err;
      const writeErrors = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
      // Only "already stored" is expected (redelivery); anything else is a real failure.
      for (const e of writeErrors) {
        if (e.code !== DUPLICATE_KEY) throw err;
        failed.add(e.index);
      }
    }
    const delta = new RollupDelta();
    let inserted = 0;
    docs.forEach((doc, index) => {
      if (failed.has(index)) return;
      inserted += 1;
      delta.add(doc, 1);
    });
    await delta.apply(this.#days, this.#dims);
    return { inserted };
  }

  #filter(query: LogQuery): Filter<LogDoc> {
    const filter: Filter<LogDoc> = { serverId: query.serverId };
    if (query.logType !== undefined) filter.logType = query.logType;
    if (present(query.level)) filter.levelLc = query.level.toLowerCase();
    if (present(query.type)) filter.typeLc = query.type.toLowerCase();
    if (present(query.resource)) filter.resourceLc = query.resource.toLowerCase();
    if (query.from !== undefined || query.to !== undefined) {
      filter.createdAt = {
        ...(query.from === undefined ? {} : { $gte: query.from }),
        ...(query.to === undefined ? {} : { $lte: query.to }),
      };
    }
    if (present(query.afterId)) filter._id = { $gt: query.afterId };
    if (present(query.search)) {
      // Escaped: the user's text is matched literally, never as a pattern.
      const pattern = { $regex: escapeRegex(query.search), $options: 'i' };
      filter.$or = [{ message: pattern }, { type: pattern }, { level: pattern }, { resource: pattern }, { metadataText: pattern }];
    }
    return filter;
  }

  async query(query: LogQuery): Promise<LogPage> {
    validateLogQuery(query);
    const filter = this.#filter(query);
    const docs = query.limit === 0 ? [] : await this.#logs.find(filter).sort(NEWEST_FIRST).skip(query.offset).limit(query.limit).toArray();
    return { items: docs.map(toRecord), ...(await this.#total(query, filter)) };
  }

  async *scan(query: LogScanQuery, pageSize: number): AsyncIterable<LogRecord[]> {
    validateLogQuery({ ...query, offset: 0, limit: pageSize });
    validateScanPageSize(pageSize);
    const base = this.#filter({ ...query, offset: 0, limit: pageSize });
    let after: { createdAt: number; id: string } | null = null;
    for (;;) {
      // Keyset on the (serverId, createdAt, _id) order: strictly after the last row handed out.
      const filter: Filter<LogDoc> =
        after === null ? base : { $and: [base, { $or: [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, _id: { $lt: after.id } }] }] };
      const docs = await this.#logs.find(filter).sort(NEWEST_FIRST).limit(pageSize).toArray();
      if (docs.length === 0) return;
      const page = docs.map(toRecord);
      yield page;
      if (docs.length < pageSize) return;
      const last = page[page.length - 1]!;
      after = { createdAt: last.createdAt, id: last.id };
    }
  }

  /**
   * The histogram (sqlite-log-histogram.ts explains the cap): the newest cap+1 matches along the same
   * indexes as a list page give the span, then one $group counts per bucket and lower-cased level. The
   * bucket of a log is the number of inner edges at or before its createdAt (the edges come from the
   * caller, already in the user's time zone, so no $dateTrunc is needed).
   */
  async histogram(query: LogScanQuery, bucketEdges: (span: LogMatchSpan) => readonly number[]): Promise<LogHistogram> {
    validateLogQuery({ ...query, offset: 0, limit: 0 });
    const filter = this.#filter({ ...query, offset: 0, limit: 0 });
    const [newest] = await this.#logs
      .aggregate<{ n: number; lo: number; hi: number }>([
        { $match: filter },
        { $sort: NEWEST_FIRST },
        { $limit: this.#countCap + 1 },
        { $group: { _id: null, n: { $sum: 1 }, lo: { $min: '$createdAt' }, hi: { $max: '$createdAt' } } },
      ])
      .toArray();
    const span = combineSpans(newest === undefined ? [] : [{ n: newest.n, oldest: newest.lo, newest: newest.hi, cutoff: newest.lo + 1 }], this.#countCap);
    if (span === null) return EMPTY_HISTOGRAM;
    const edges = bucketEdges(span);
    validateHistogramEdges(edges);
    const counts = new HistogramCounts(edges.length - 1);
    const range = countedRange(query, edges, span);
    if (range.from <= range.to) {
      const inner = edges.slice(1, -1);
      const rows = await this.#logs
        .aggregate<{ _id: { b: number; lv: string }; n: number }>([
          { $match: this.#filter({ ...query, from: range.from, to: range.to, offset: 0, limit: 0 }) },
          { $group: { _id: { b: { $size: { $filter: { input: inner, as: 'e', cond: { $lte: ['$$e', '$createdAt'] } } } }, lv: '$levelLc' }, n: { $sum: 1 } } },
        ])
        .toArray();
      for (const row of rows) counts.add(row._id.b, row._id.lv, row.n);
    }
    return counts.build(edges, span);
  }

  /** Rollups answer the total when they can (exact, never capped); otherwise a count up to the cap. */
  async #total(query: LogQuery, filter: Filter<LogDoc>): Promise<{ total: number; totalCapped: boolean }> {
    const fromRollups = await this.#rollupTotal(query);
    if (fromRollups !== null) return { total: fromRollups, totalCapped: false };
    return cappedTotal(await this.#logs.countDocuments(filter, { limit: this.#countCap + 1 }), this.#countCap);
  }

  async #rollupTotal(query: LogQuery): Promise<number | null> {
    // Rollups know nothing of ids or words: a total after an id or of a search is a count of the documents.
    if (present(query.search) || present(query.afterId)) return null;
    const dims = DIMS.filter((d) => present(query[d]));
    const hasRange = query.from !== undefined || query.to !== undefined;
    const logType = query.logType === undefined ? {} : { logType: query.logType };
    if (dims.length === 0 && isDayAligned(query.from, query.to)) {
      const day: Record<string, number> = {};
      if (query.from !== undefined) day['$gte'] = query.from / DAY_MS;
      if (query.to !== undefined) day['$lte'] = (query.to + 1) / DAY_MS - 1;
      return this.#sum(this.#days, { serverId: query.serverId, ...logType, ...(hasRange ? { day } : {}) });
    }
    if (dims.length === 1 && !hasRange) {
      const dim = dims[0]!;
      return this.#sum(this.#dims, { serverId: query.serverId, dim, valueLc: (query[dim] ?? '').toLowerCase(), ...logType });
    }
    return null;
  }

  async #sum<T extends Document>(collection: Collection<T>, match: Document): Promise<number> {
    const [row] = await collection.aggregate<{ n: number }>([{ $match: match }, { $group: { _id: null, n: { $sum: '$n' } } }]).toArray();
    return row?.n ?? 0;
  }

  async stats(serverId: string, range: { readonly fromDay: string; readonly toDay: string }): Promise<LogStats> {
    const fromDay = parseDay(range.fromDay);
    const toDay = parseDay(range.toDay);
    const stats = new StatsBuilder();
    for (const row of await this.#days.find({ serverId, n: { $gt: 0 } }).toArray()) {
      stats.addTotal(row.logType, row.n);
      if (row.day >= fromDay && row.day <= toDay) stats.addDay(dayString(row.day), row.logType, row.n);
    }
    for (const row of await this.#dims.find({ serverId, n: { $gt: 0 } }).sort({ logType: -1 }).toArray()) {
      stats.addDim(row.dim, row.value, row.logType, row.n);
    }
    return stats.build();
  }

  async facets(serverId: string): Promise<{ levels: string[]; types: string[]; resources: string[] }> {
    const seen = { level: new Map<string, string>(), type: new Map<string, string>(), resource: new Map<string, string>() };
    for (const row of await this.#dims.find({ serverId, n: { $gt: 0 } }).toArray()) {
      if (!seen[row.dim].has(row.valueLc)) seen[row.dim].set(row.valueLc, row.value);
    }
    const list = (m: Map<string, string>): string[] => [...m.values()].sort();
    return { levels: list(seen.level), types: list(seen.type), resources: list(seen.resource) };
  }

  async count(serverId: string, logType?: LogType): Promise<number> {
    if (logType !== undefined) assertLogType(logType);
    return this.#sum(this.#days, { serverId, ...(logType === undefined ? {} : { logType }) });
  }

  async deleteBefore(serverId: string, before: number): Promise<DeleteResult> {
    if (!Number.isFinite(before)) throw new RangeError('before must be finite epoch milliseconds');
    return this.#deleteInChunks(() => this.#logs.find({ serverId, createdAt: { $lt: before } }).limit(this.#chunk));
  }

  async deleteExpired(now: number): Promise<DeleteResult> {
    if (!Number.isFinite(now)) throw new RangeError('now must be finite epoch milliseconds');
    return this.#deleteInChunks(() => this.#logs.find({ expiresAt: { $lte: now } }).limit(this.#chunk));
  }

  async deleteOldest(serverId: string, logType: LogType, keep: number): Promise<DeleteResult> {
    assertLogType(logType);
    if (!Number.isSafeInteger(keep) || keep < 0) throw new RangeError('keep must be a non-negative integer');
    return this.#deleteInChunks(() => this.#logs.find({ serverId, logType }).sort(NEWEST_FIRST).skip(keep).limit(this.#chunk));
  }

  async getByKeys(serverId: string, keys: readonly LogKey[]): Promise<LogRecord[]> {
    if (keys.length === 0) return [];
    return (await this.#logs.find(byKeys(serverId, keys)).toArray()).map(toRecord);
  }

  /** `_id` is the log id: one index seek, the server checked on the document. */
  async getById(serverId: string, id: string): Promise<LogRecord | null> {
    if (typeof id !== 'string' || id === '') return null;
    const doc = await this.#logs.findOne({ _id: id, serverId });
    return doc === null ? null : toRecord(doc);
  }

  /**
   * Keyset on server_time (serverId, createdAt, _id), walked backwards for the newer side: the createdAt
   * bound is the index range the walk starts from; the $or drops the key itself and the same-time logs on
   * its other side.
   */
  async neighbours(serverId: string, key: LogKey, direction: NeighbourDirection, limit: number): Promise<LogRecord[]> {
    validateNeighbours(serverId, key, direction, limit);
    if (limit === 0) return [];
    const filter: Filter<LogDoc> =
      direction === 'older'
        ? { serverId, createdAt: { $lte: key.createdAt }, $or: [{ createdAt: { $lt: key.createdAt } }, { _id: { $lt: key.id } }] }
        : { serverId, createdAt: { $gte: key.createdAt }, $or: [{ createdAt: { $gt: key.createdAt } }, { _id: { $gt: key.id } }] };
    const docs = await this.#logs
      .find(filter)
      .sort(direction === 'older' ? NEWEST_FIRST : OLDEST_FIRST)
      .limit(limit)
      .toArray();
    return docs.map(toRecord);
  }

  async deleteByKeys(serverId: string, keys: readonly LogKey[]): Promise<DeleteResult> {
    if (keys.length === 0) return { deletedCount: 0, objectKeys: [] };
    return this.#deleteInChunks(() => this.#logs.find(byKeys(serverId, keys)).limit(this.#chunk));
  }

  async #deleteInChunks(select: () => ReturnType<Collection<LogDoc>['find']>): Promise<DeleteResult> {
    let deletedCount = 0;
    const objectKeys: string[] = [];
    for (;;) {
      const doomed = await select()
        .project<Pick<LogDoc, '_id' | 'serverId' | 'createdAt' | 'logType' | 'level' | 'type' | 'resource' | 'imageKey' | 'thumbKey'>>({
          _id: 1,
          serverId: 1,
          createdAt: 1,
          logType: 1,
          level: 1,
          type: 1,
          resource: 1,
          imageKey: 1,
          thumbKey: 1,
        })
        .toArray();
      if (doomed.length === 0) break;
      const result = await this.#logs.deleteMany({ _id: { $in: doomed.map((d) => d._id) } });
      deletedCount += result.deletedCount;
      const delta = new RollupDelta();
      for (const d of doomed) {
        delta.add(d, -1);
        for (const key of [d.imageKey, d.thumbKey]) if (d.logType === 'photo' && key !== null && key !== '') objectKeys.push(key);
      }
      await delta.apply(this.#days, this.#dims);
      const servers = [...new Set(doomed.map((d) => d.serverId))];
      await this.#days.deleteMany({ serverId: { $in: servers }, n: { $lte: 0 } });
      await this.#dims.deleteMany({ serverId: { $in: servers }, n: { $lte: 0 } });
      if (doomed.length < this.#chunk) break;
    }
    return { deletedCount, objectKeys };
  }

  async close(): Promise<void> {
    await this.#client.close();
  }
}
