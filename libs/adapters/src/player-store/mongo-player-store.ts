/**
 * MongoDB player store (the logs database): the same model as the SQLite adapter.
 * - `players`: `_id` an integer from the `player_ids` counter (older = smaller), counts, seen span, next
 *   expiry, `mergedInto` (a merged player keeps only that), `foldedNames` (lower case, for the name search);
 * - `player_identifiers` (unique serverId + identifier + playerId), `player_names` (unique playerId + name);
 * - `player_logs`: one document per (player, log): `{ p, t: 0 text | 1 photo, a: log time, l: log id, e: expiry }`,
 *   unique on (p, t, a, l), which also makes recording idempotent.
 * Without multi-document transactions a crash inside record() can leave counts behind the rows until the
 * player's next recount (a merge or a deletion); the rows themselves are written idempotently.
 */
import { MongoBulkWriteError, MongoClient, MongoServerError } from 'mongodb';
import type { AnyBulkWriteOperation, Collection, Db, Filter } from 'mongodb';
import type {
  LogMentions,
  LogPosition,
  LogType,
  MentionedPlayer,
  PlayerDetail,
  PlayerListQuery,
  PlayerLogRef,
  PlayerLookup,
  PlayerQueuePage,
  PlayerStore,
  PlayerSummary,
  PlayerTimelineQuery,
  QueuedLog,
} from '@skald/ports';
import { foldName, isLinking, joinOf, newestOf, normalizedIdentifier, packQueued, playerIdOf, playerSearchOf, unpackQueued } from './player-store-shared.ts';

const DUPLICATE_KEY = 11000;

interface PlayerDoc {
  _id: number;
  serverId: string;
  mergedInto: number | null;
  name: string | null;
  nameSeen: number | null;
  foldedNames: string[];
  firstSeen: number;
  lastSeen: number;
  logCount: number;
  photoCount: number;
  nextExpiry: number | null;
}

interface IdentifierDoc {
  serverId: string;
  identifier: string;
  playerId: number;
  firstSeen: number;
  lastSeen: number;
}

interface NameDoc {
  playerId: number;
  name: string;
  firstSeen: number;
  lastSeen: number;
}

interface PlayerLogDoc {
  p: number;
  t: 0 | 1;
  a: number;
  l: string;
  e: number;
}

interface QueueDoc {
  _id: number;
  /** packQueued JSON: one string, not a document per log. */
  logs: string;
}

interface CounterDoc {
  _id: string;
  seq: number;
}


const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function beforeFilter(before: LogPosition | undefined): Filter<PlayerLogDoc> {
  if (before === undefined) return {};
  return { $or: [{ a: { $lt: before.at } }, { a: before.at, l: { $lt: before.logId } }] };
}

/** What one record() call learnt about a player, written at the end (or before a merge). */
interface Pending {
  readonly serverId: string;
  readonly rows: PlayerLogDoc[];
  readonly names: Map<string, { first: number; last: number }>;
  readonly identifiers: Map<string, { first: number; last: number }>;
  name: string | null;
  nameSeen: number;
}

export class MongoPlayerStore implements PlayerStore {
  readonly #client: MongoClient;
  readonly #db: Db;
  readonly #players: Collection<PlayerDoc>;
  readonly #identifiers: Collection<IdentifierDoc>;
  readonly #names: Collection<NameDoc>;
  readonly #logs: Collection<PlayerLogDoc>;
  readonly #counters: Collection<CounterDoc>;
  readonly #queue: Collection<QueueDoc>;

  constructor(url: string, database: string) {
    this.#client = new MongoClient(url, { writeConcern: { w: 'majority' }, serverSelectionTimeoutMS: 10_000 });
    this.#db = this.#client.db(database);
    this.#players = this.#db.collection<PlayerDoc>('players');
    this.#identifiers = this.#db.collection<IdentifierDoc>('player_identifiers');
    this.#names = this.#db.collection<NameDoc>('player_names');
    this.#logs = this.#db.collection<PlayerLogDoc>('player_logs');
    this.#counters = this.#db.collection<CounterDoc>('player_ids');
    this.#queue = this.#db.collection<QueueDoc>('player_queue');
  }

  async ensureIndexes(): Promise<void> {
    await this.#players.createIndexes([
      { key: { serverId: 1, mergedInto: 1, lastSeen: -1, _id: -1 }, name: 'server_recent' },
      { key: { serverId: 1, mergedInto: 1, firstSeen: 1 }, name: 'server_first_seen' },
      { key: { nextExpiry: 1 }, name: 'next_expiry', partialFilterExpression: { nextExpiry: { $type: 'number' } } },
      { key: { mergedInto: 1 }, name: 'merged_into' },
    ]);
    await this.#identifiers.createIndexes([
      { key: { serverId: 1, identifier: 1, playerId: 1 }, name: 'server_identifier', unique: true },
      { key: { playerId: 1, lastSeen: -1 }, name: 'player' },
    ]);
    await this.#names.createIndex({ playerId: 1, name: 1 }, { name: 'player_name', unique: true });
    await this.#logs.createIndex({ p: 1, t: 1, a: -1, l: -1 }, { name: 'timeline', unique: true });
  }

  // ---- recording ----

  async queue(logs: readonly QueuedLog[]): Promise<void> {
    if (logs.length === 0) return;
    const seq = await this.#next('player_queue');
    await this.#queue.insertOne({ _id: seq, logs: packQueued(logs) });
  }

  async queued(limit: number): Promise<PlayerQueuePage> {
    const logs: QueuedLog[] = [];
    let through = -1;
    for await (const doc of this.#queue.find().sort({ _id: 1 })) {
      for (const log of unpackQueued(doc.logs)) logs.push(log);
      through = doc._id;
      if (logs.length >= limit) break;
    }
    return { logs, through };
  }

  async #next(counter: string): Promise<number> {
    const doc = await this.#counters.findOneAndUpdate({ _id: counter }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' });
    return doc?.seq ?? 1;
  }

  /** Without transactions the queue is dropped after the recording: a crash between them records again (idempotent). */
  async record(logs: readonly LogMentions[], queuedThrough?: number): Promise<void> {
    await this.#record(logs);
    if (queuedThrough !== undefined && queuedThrough >= 0) await this.#queue.deleteMany({ _id: { $lte: queuedThrough } });
  }

  async #record(logs: readonly LogMentions[]): Promise<void> {
    const owners = new Map<string, number>();
    const pending = new Map<number, Pending>();
    for (const log of logs) {
      for (const mentioned of log.players) await this.#recordPlayer(owners, pending, log, mentioned);
    }
    await this.#flush(pending);
  }

  async #recordPlayer(owners: Map<string, number>, pending: Map<number, Pending>, log: LogMentions, mentioned: MentionedPlayer): Promise<void> {
    const linking = mentioned.linking.filter(isLinking);
    if (linking.length === 0) return;
    const found = new Set<number>();
    const unknown: string[] = [];
    for (const identifier of linking) {
      const owner = owners.get(`${log.serverId}\u0000${identifier}`);
      if (owner === undefined) unknown.push(identifier);
      else found.add(owner);
    }
    if (unknown.length > 0) {
      for (const doc of await this.#identifiers.find({ serverId: log.serverId, identifier: { $in: unknown } }).toArray()) found.add(doc.playerId);
    }
    const join = joinOf(found);
    const target = join === null ? await this.#createPlayer(log.serverId, log.at) : join.survivor;
    for (const other of join?.merged ?? []) {
      await this.#flush(pending);
      await this.#merge(other, target);
      for (const [key, owner] of owners) if (owner === other) owners.set(key, target);
    }
    let state = pending.get(target);
    if (state === undefined) {
      state = { serverId: log.serverId, rows: [], names: new Map(), identifiers: new Map(), name: null, nameSeen: 0 };
      pending.set(target, state);
    }
    state.rows.push({ p: target, t: log.logType === 'photo' ? 1 : 0, a: log.at, l: log.logId, e: log.expiresAt });
    for (const identifier of [...linking, ...mentioned.listed]) {
      seen(state.identifiers, identifier, log.at);
      if (isLinking(identifier)) owners.set(`${log.serverId}\u0000${identifier}`, target);
    }
    for (const name of mentioned.names) {
      seen(state.names, name, log.at);
      if (state.name === null || log.at >= state.nameSeen) {
        state.name = name;
        state.nameSeen = log.at;
      }
    }
  }

  async #createPlayer(serverId: string, at: number): Promise<number> {
    const id = await this.#next('players');
    await this.#players.insertOne({
      _id: id,
      serverId,
      mergedInto: null,
      name: null,
      nameSeen: null,
      foldedNames: [],
      firstSeen: at,
      lastSeen: at,
      logCount: 0,
      photoCount: 0,
      nextExpiry: null,
    });
    return id;
  }

  async #flush(pending: Map<number, Pending>): Promise<void> {
    for (const [playerId, state] of pending) {
      const inserted = await this.#insertRows(state.rows);
      const identifierOps: AnyBulkWriteOperation<IdentifierDoc>[] = [...state.identifiers].map(([identifier, span]) => ({
        updateOne: {
          filter: { serverId: state.serverId, identifier, playerId },
          update: { $min: { firstSeen: span.first }, $max: { lastSeen: span.last } },
          upsert: true,
        },
      }));
      if (identifierOps.length > 0) await this.#identifiers.bulkWrite(identifierOps, { ordered: false });
      const nameOps: AnyBulkWriteOperation<NameDoc>[] = [...state.names].map(([name, span]) => ({
        updateOne: { filter: { playerId, name }, update: { $min: { firstSeen: span.first }, $max: { lastSeen: span.last } }, upsert: true },
      }));
      if (nameOps.length > 0) await this.#names.bulkWrite(nameOps, { ordered: false });
      const texts = inserted.filter((row) => row.t === 0).length;
      const photos = inserted.length - texts;
      const update: Record<string, Record<string, unknown>> = {};
      if (inserted.length > 0) {
        update['$inc'] = { logCount: texts, photoCount: photos };
        update['$min'] = { firstSeen: Math.min(...inserted.map((row) => row.a)) };
        update['$max'] = { lastSeen: Math.max(...inserted.map((row) => row.a)) };
      }
      if (state.names.size > 0) update['$addToSet'] = { foldedNames: { $each: [...state.names.keys()].map(foldName) } };
      if (Object.keys(update).length > 0) await this.#players.updateOne({ _id: playerId }, update);
      if (inserted.length > 0) {
        const next = Math.min(...inserted.map((row) => row.e));
        await this.#players.updateOne({ _id: playerId, $or: [{ nextExpiry: null }, { nextExpiry: { $gt: next } }] }, { $set: { nextExpiry: next } });
      }
      if (state.name !== null) {
        await this.#players.updateOne(
          { _id: playerId, $or: [{ nameSeen: null }, { nameSeen: { $lte: state.nameSeen } }] },
          { $set: { name: state.name, nameSeen: state.nameSeen } },
        );
      }
    }
    pending.clear();
  }

  /** Inserts the rows not stored yet and answers those it inserted (a duplicate is an earlier delivery). */
  async #insertRows(rows: readonly PlayerLogDoc[]): Promise<PlayerLogDoc[]> {
    if (rows.length === 0) return [];
    const copies = rows.map((row) => ({ ...row }));
    const failed = new Set<number>();
    try {
      await this.#logs.insertMany(copies, { ordered: false });
    } catch (error) {
      if (!(error instanceof MongoBulkWriteError)) throw error;
      const writeErrors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
      for (const e of writeErrors) {
        if (e.code !== DUPLICATE_KEY) throw error;
        failed.add(e.index);
      }
    }
    return rows.filter((_, index) => !failed.has(index));
  }

  async #merge(loser: number, winner: number): Promise<void> {
    for await (const row of this.#logs.find({ p: loser }, { projection: { _id: 0 } })) {
      try {
        await this.#logs.insertOne({ ...row, p: winner });
      } catch (error) {
        if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error;
      }
    }
    await this.#logs.deleteMany({ p: loser });
    for (const doc of await this.#identifiers.find({ playerId: loser }).toArray()) {
      await this.#identifiers.updateOne(
        { serverId: doc.serverId, identifier: doc.identifier, playerId: winner },
        { $min: { firstSeen: doc.firstSeen }, $max: { lastSeen: doc.lastSeen } },
        { upsert: true },
      );
    }
    await this.#identifiers.deleteMany({ playerId: loser });
    for (const doc of await this.#names.find({ playerId: loser }).toArray()) {
      await this.#names.updateOne({ playerId: winner, name: doc.name }, { $min: { firstSeen: doc.firstSeen }, $max: { lastSeen: doc.lastSeen } }, { upsert: true });
    }
    await this.#names.deleteMany({ playerId: loser });
    await this.#players.updateOne({ _id: loser }, { $set: { mergedInto: winner, logCount: 0, photoCount: 0, nextExpiry: null, foldedNames: [] } });
    await this.#players.updateMany({ mergedInto: loser }, { $set: { mergedInto: winner } });
    const names = await this.#names.find({ playerId: winner }).sort({ lastSeen: -1, name: 1 }).toArray();
    const newest = names[0];
    await this.#players.updateOne(
      { _id: winner },
      { $set: { foldedNames: names.map((doc) => foldName(doc.name)), ...(newest ? { name: newest.name, nameSeen: newest.lastSeen } : {}) } },
    );
    await this.#recount(winner);
  }

  async #recount(playerId: number): Promise<void> {
    const [totals] = await this.#logs
      .aggregate<{ n: number; photos: number; first: number; last: number; next: number }>([
        { $match: { p: playerId } },
        { $group: { _id: null, n: { $sum: 1 }, photos: { $sum: '$t' }, first: { $min: '$a' }, last: { $max: '$a' }, next: { $min: '$e' } } },
      ])
      .toArray();
    if (totals === undefined || totals.n === 0) {
      await this.#drop(playerId);
      return;
    }
    await this.#players.updateOne(
      { _id: playerId },
      { $set: { logCount: totals.n - totals.photos, photoCount: totals.photos, firstSeen: totals.first, lastSeen: totals.last, nextExpiry: totals.next } },
    );
  }

  async #drop(playerId: number): Promise<void> {
    await this.#logs.deleteMany({ p: playerId });
    await this.#identifiers.deleteMany({ playerId });
    await this.#names.deleteMany({ playerId });
    await this.#players.deleteMany({ $or: [{ _id: playerId }, { mergedInto: playerId }] });
  }

  // ---- reading ----

  /** Nothing is gathered in memory between calls: every call writes what it learnt. */
  async settle(): Promise<void> {}

  async list(query: PlayerListQuery): Promise<{ players: PlayerSummary[]; total: number }> {
    const search = playerSearchOf(query.search);
    const filter: Filter<PlayerDoc> = { serverId: query.serverId, mergedInto: null };
    if (search !== null) {
      const ids = search.identifiers.length === 0 ? [] : await this.#identifiers.distinct('playerId', { serverId: query.serverId, identifier: { $in: [...search.identifiers] } });
      filter.$or = [{ foldedNames: { $regex: escapeRegex(search.folded) } }, { _id: { $in: ids } }];
    }
    const [docs, total] = await Promise.all([
      this.#players.find(filter).sort({ lastSeen: -1, _id: -1 }).skip(query.offset).limit(query.limit).toArray(),
      this.#players.countDocuments(filter),
    ]);
    const players = await Promise.all(
      docs.map(async (doc) => {
        const [names, identifiers] = await Promise.all([
          this.#names.find({ playerId: doc._id }).sort({ lastSeen: -1, name: 1 }).limit(query.itemsPerRow).toArray(),
          this.#identifiers.find({ playerId: doc._id }).sort({ lastSeen: -1, identifier: 1 }).limit(query.itemsPerRow).toArray(),
        ]);
        return { ...summaryOf(doc), names: names.map((n) => n.name), identifiers: identifiers.map((i) => i.identifier) };
      }),
    );
    return { players, total };
  }

  async get(serverId: string, playerId: string): Promise<PlayerLookup | null> {
    const id = playerIdOf(playerId);
    if (id === null) return null;
    const doc = await this.#players.findOne({ _id: id, serverId });
    if (doc === null) return null;
    if (doc.mergedInto !== null) return { mergedInto: String(doc.mergedInto) };
    return { player: await this.#detail(doc) };
  }

  async byIdentifier(serverId: string, identifier: string): Promise<PlayerDetail | null> {
    const normalized = normalizedIdentifier(identifier);
    if (normalized === null) return null;
    const owner = await this.#identifiers.find({ serverId, identifier: normalized }).sort({ lastSeen: -1 }).limit(1).next();
    if (owner === null) return null;
    const doc = await this.#players.findOne({ _id: owner.playerId, serverId, mergedInto: null });
    return doc === null ? null : this.#detail(doc);
  }

  async #detail(doc: PlayerDoc): Promise<PlayerDetail> {
    const [names, identifiers] = await Promise.all([
      this.#names.find({ playerId: doc._id }).sort({ lastSeen: -1, name: 1 }).toArray(),
      this.#identifiers.find({ playerId: doc._id }).sort({ lastSeen: -1, identifier: 1 }).toArray(),
    ]);
    return {
      ...summaryOf(doc),
      names: names.map((n) => ({ name: n.name, firstSeen: n.firstSeen, lastSeen: n.lastSeen })),
      identifiers: identifiers.map((i) => ({ identifier: i.identifier, firstSeen: i.firstSeen, lastSeen: i.lastSeen })),
    };
  }

  async #liveId(serverId: string, playerId: string): Promise<number | null> {
    const id = playerIdOf(playerId);
    if (id === null) return null;
    const doc = await this.#players.findOne({ _id: id, serverId }, { projection: { mergedInto: 1 } });
    if (doc === null) return null;
    return doc.mergedInto ?? id;
  }

  async timeline(query: PlayerTimelineQuery): Promise<PlayerLogRef[]> {
    const id = await this.#liveId(query.serverId, query.playerId);
    if (id === null || query.limit <= 0) return [];
    const types: LogType[] = query.logType === undefined ? ['text', 'photo'] : [query.logType];
    const pages = await Promise.all(
      types.map(async (logType) => {
        const docs = await this.#logs
          .find({ p: id, t: logType === 'photo' ? 1 : 0, ...beforeFilter(query.before) })
          .sort({ a: -1, l: -1 })
          .limit(query.limit)
          .toArray();
        return docs.map((doc) => ({ at: doc.a, logId: doc.l, logType }));
      }),
    );
    return pages.length === 1 ? pages[0]! : newestOf(pages[0]!, pages[1]!, query.limit);
  }

  async logsOf(serverId: string, playerId: string): Promise<PlayerLogRef[]> {
    const id = await this.#liveId(serverId, playerId);
    if (id === null) return [];
    const docs = await this.#logs.find({ p: id }).sort({ a: -1, l: -1 }).toArray();
    return docs.map((doc) => ({ at: doc.a, logId: doc.l, logType: doc.t === 1 ? 'photo' : 'text' }));
  }

  // ---- forgetting ----

  async forgetLogs(serverId: string, logs: ReadonlyArray<PlayerLogRef & { readonly identifiers: readonly string[] }>): Promise<void> {
    const touched = new Set<number>();
    for (const log of logs) {
      const linking = log.identifiers.filter(isLinking);
      if (linking.length === 0) continue;
      const owners = await this.#identifiers.distinct('playerId', { serverId, identifier: { $in: linking } });
      for (const owner of owners) {
        const removed = await this.#logs.deleteOne({ p: owner, t: log.logType === 'photo' ? 1 : 0, a: log.at, l: log.logId });
        if (removed.deletedCount > 0) touched.add(owner);
      }
    }
    for (const owner of touched) await this.#recount(owner);
  }

  async erase(serverId: string, playerId: string): Promise<void> {
    const id = await this.#liveId(serverId, playerId);
    if (id !== null) await this.#drop(id);
  }

  async forgetBefore(serverId: string, before: LogPosition, logType?: LogType): Promise<void> {
    const filter: Filter<PlayerDoc> = { serverId, mergedInto: null, firstSeen: { $lte: before.at } };
    if (logType === 'photo') filter.photoCount = { $gt: 0 };
    const types = logType === undefined ? [0, 1] : [logType === 'photo' ? 1 : 0];
    // The ids first: a recount may drop players while they are visited.
    for (const id of await this.#players.distinct('_id', filter)) {
      const removed = await this.#logs.deleteMany({ p: id, t: { $in: types }, ...beforeFilter(before) } as Filter<PlayerLogDoc>);
      if (removed.deletedCount > 0) await this.#recount(id);
    }
  }

  async forgetExpired(now: number): Promise<void> {
    const ids = await this.#players.distinct('_id', { mergedInto: null, nextExpiry: { $lte: now } });
    for (const id of ids) {
      await this.#logs.deleteMany({ p: id, e: { $lte: now } });
      await this.#recount(id);
    }
  }

  async close(): Promise<void> {
    await this.#client.close();
  }
}

function seen(map: Map<string, { first: number; last: number }>, key: string, at: number): void {
  const span = map.get(key);
  if (span === undefined) map.set(key, { first: at, last: at });
  else {
    span.first = Math.min(span.first, at);
    span.last = Math.max(span.last, at);
  }
}

function summaryOf(doc: PlayerDoc): Omit<PlayerSummary, 'names' | 'identifiers'> {
  return {
    id: String(doc._id),
    serverId: doc.serverId,
    name: doc.name,
    firstSeen: doc.firstSeen,
    lastSeen: doc.lastSeen,
    logCount: doc.logCount,
    photoCount: doc.photoCount,
  };
}
