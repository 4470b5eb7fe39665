/**
 * Rollup increments of one insert batch, aggregated in JS so that the transaction runs one upsert per
 * distinct (server, day, logType) and (server, dim, value, logType) instead of one per row or a GROUP BY
 * over the inserted rows (the clustered table has no rowid range to find them by).
 *
 * Dimension values are keyed by their exact spelling: values differing only in case become separate
 * upserts that meet on the same NOCASE rollup row in SQLite, which keeps SQLite's (ASCII) case folding
 * the only one in play.
 */
import { DAY_MS } from './log-store-shared.ts';

/** [text, photo] counts. */
type Pair = [number, number];

interface ServerDims {
  readonly level: Map<string, Pair>;
  readonly type: Map<string, Pair>;
  readonly resource: Map<string, Pair>;
}

export interface DayDelta {
  readonly serverKey: number;
  readonly day: number;
  readonly logType: 'text' | 'photo';
  readonly n: number;
  /** Smallest expiresAt among the counted rows (a lower bound when rows were taken back). */
  readonly minExpires: number;
}

/** [text, photo, text min expiresAt, photo min expiresAt]. */
type DayCounts = [number, number, number, number];

export interface DimDelta {
  readonly serverKey: number;
  readonly dim: 'level' | 'type' | 'resource';
  readonly value: string;
  readonly logType: 'text' | 'photo';
  readonly n: number;
}

function bump(map: Map<string, Pair>, value: string, slot: 0 | 1, by: number): void {
  const pair = map.get(value);
  if (pair === undefined) {
    const fresh: Pair = [0, 0];
    fresh[slot] = by;
    map.set(value, fresh);
  } else pair[slot] += by;
}

export class RollupDelta {
  // Rows of a batch mostly share server and day, so the day counts run in a register until the key changes.
  #runServer = -1;
  #runDay = -1;
  #runText = 0;
  #runPhoto = 0;
  #runTextExpires = Number.POSITIVE_INFINITY;
  #runPhotoExpires = Number.POSITIVE_INFINITY;
  readonly #days = new Map<number, Map<number, DayCounts>>();
  readonly #dims = new Map<number, ServerDims>();
  #lastServer = -1;
  #lastDims: ServerDims | undefined;

  /** Counts one row (`by` = -1 takes back a row that turned out not to be inserted). */
  add(serverKey: number, createdAt: number, expiresAt: number, level: string, type: string, resource: string, photo: boolean, by = 1): void {
    const day = Math.floor(createdAt / DAY_MS);
    if (serverKey !== this.#runServer || day !== this.#runDay) {
      this.#flushRun();
      this.#runServer = serverKey;
      this.#runDay = day;
    }
    const slot = photo ? 1 : 0;
    if (photo) {
      this.#runPhoto += by;
      if (expiresAt < this.#runPhotoExpires) this.#runPhotoExpires = expiresAt;
    } else {
      this.#runText += by;
      if (expiresAt < this.#runTextExpires) this.#runTextExpires = expiresAt;
    }
    let dims = this.#lastDims;
    if (serverKey !== this.#lastServer || dims === undefined) {
      dims = this.#dims.get(serverKey);
      if (dims === undefined) {
        dims = { level: new Map(), type: new Map(), resource: new Map() };
        this.#dims.set(serverKey, dims);
      }
      this.#lastServer = serverKey;
      this.#lastDims = dims;
    }
    bump(dims.level, level, slot, by);
    bump(dims.type, type, slot, by);
    bump(dims.resource, resource, slot, by);
  }

  /**
   * Takes back `n` text rows of one day (the day of `createdAt`) at once, their dimensions left to `takeBackDims`:
   * a block dropped whole, whose counts its directory entry already holds.
   */
  takeBackDay(serverKey: number, createdAt: number, n: number): void {
    const day = Math.floor(createdAt / DAY_MS);
    if (serverKey !== this.#runServer || day !== this.#runDay) {
      this.#flushRun();
      this.#runServer = serverKey;
      this.#runDay = day;
    }
    this.#runText -= n;
  }

  /** Takes back text rows' dimension counts (value as written → rows), with takeBackDay. */
  takeBackDims(serverKey: number, counts: { readonly level: Readonly<Record<string, number>>; readonly type: Readonly<Record<string, number>>; readonly resource: Readonly<Record<string, number>> }): void {
    let dims = this.#dims.get(serverKey);
    if (dims === undefined) {
      dims = { level: new Map(), type: new Map(), resource: new Map() };
      this.#dims.set(serverKey, dims);
    }
    for (const dim of ['level', 'type', 'resource'] as const) for (const [value, n] of Object.entries(counts[dim])) bump(dims[dim], value, 0, -n);
  }

  #flushRun(): void {
    if (this.#runServer >= 0 && (this.#runText !== 0 || this.#runPhoto !== 0)) this.#addRun(this.#runServer);
    this.#runText = 0;
    this.#runPhoto = 0;
    this.#runTextExpires = Number.POSITIVE_INFINITY;
    this.#runPhotoExpires = Number.POSITIVE_INFINITY;
  }

  #addRun(serverKey: number): void {
    let days = this.#days.get(serverKey);
    if (days === undefined) {
      days = new Map();
      this.#days.set(serverKey, days);
    }
    const counts = days.get(this.#runDay);
    if (counts === undefined) days.set(this.#runDay, [this.#runText, this.#runPhoto, this.#runTextExpires, this.#runPhotoExpires]);
    else {
      counts[0] += this.#runText;
      counts[1] += this.#runPhoto;
      counts[2] = Math.min(counts[2], this.#runTextExpires);
      counts[3] = Math.min(counts[3], this.#runPhotoExpires);
    }
  }

  /** Non-zero day increments. */
  *days(): Generator<DayDelta> {
    this.#flushRun();
    for (const [serverKey, days] of this.#days) {
      for (const [day, [text, photo, textExpires, photoExpires]] of days) {
        if (text !== 0) yield { serverKey, day, logType: 'text', n: text, minExpires: textExpires };
        if (photo !== 0) yield { serverKey, day, logType: 'photo', n: photo, minExpires: photoExpires };
      }
    }
  }

  /** Non-zero dimension increments. */
  *dims(): Generator<DimDelta> {
    for (const [serverKey, dims] of this.#dims) {
      for (const dim of ['level', 'type', 'resource'] as const) {
        for (const [value, [text, photo]] of dims[dim]) {
          if (text !== 0) yield { serverKey, dim, value, logType: 'text', n: text };
          if (photo !== 0) yield { serverKey, dim, value, logType: 'photo', n: photo };
        }
      }
    }
  }
}
