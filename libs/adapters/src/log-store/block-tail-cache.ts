/**
 * The tail's rows as a search reads them, kept in memory per server: each row's key, its filter values
 * ASCII-lower-cased and its searched text (message, metadata JSON, type, level, resource) ASCII-lower-cased.
 * The tail is small (a few blocks' worth per server) but read by every query: matching it here costs a pass
 * over strings, where SQL LIKE over its rows measured ~17 ms per column for 7,500 rows. Loaded from the table
 * at a server's first query; an insert appends its rows once committed; a seal or a delete drops the server's
 * copy (loaded again at the next query).
 */
import type { LogRecord, LogType } from '@skald/ports';
import type { BlockConnection } from './block-store-connection.ts';
import { newestFirst } from './block-match.ts';
import type { RowFilter } from './block-match.ts';
import { foldAscii } from './block-token-dictionary.ts';
import { num, str } from './sqlite-log-rows.ts';

export interface TailRow {
  readonly createdAt: number;
  readonly id: string;
  /** The level ASCII-lower-cased. */
  readonly stream: string;
  readonly type: string;
  readonly resource: string;
  readonly logType: LogType;
  /** The searched columns ASCII-lower-cased, each ended by a NUL (a search never spans two of them). */
  readonly text: string;
}

/** A row's searched columns as a TailRow holds them (metadata: its JSON as stored, null for none). */
export function searchText(message: string, metadata: string | null, type: string, level: string, resource: string): string {
  return foldAscii(`${message}\0${metadata ?? ''}\0${type}\0${level}\0${resource}\0`);
}

export function tailRowOf(r: LogRecord): TailRow {
  return {
    createdAt: r.createdAt,
    id: r.id,
    stream: foldAscii(r.level),
    type: foldAscii(r.type),
    resource: foldAscii(r.resource),
    logType: r.logType,
    text: searchText(r.message, r.metadata === null ? null : JSON.stringify(r.metadata), r.type, r.level, r.resource),
  };
}

function byKey(a: TailRow, b: TailRow): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Whether the row passes the filter, its search included (a needle holding a NUL is never matched here: see `usable`). */
export function tailRowMatches(row: TailRow, f: RowFilter): boolean {
  if (f.level !== undefined && row.stream !== f.level) return false;
  if (f.type !== undefined && row.type !== f.type) return false;
  if (f.resource !== undefined && row.resource !== f.resource) return false;
  if (f.logType !== undefined && row.logType !== f.logType) return false;
  if (f.from !== undefined && row.createdAt < f.from) return false;
  if (f.to !== undefined && row.createdAt > f.to) return false;
  if (f.afterId !== undefined && !(row.id > f.afterId)) return false;
  const b = f.bound;
  if (b !== undefined) {
    const order = newestFirst(row.createdAt, row.id, b.createdAt, b.id);
    if (b.side === 'older' ? order <= 0 : order >= 0) return false;
  }
  return f.needle === undefined || row.text.includes(f.needle);
}

export class TailCache {
  readonly #conn: BlockConnection;
  /** Per server key, its tail rows in (created_at, id) order. */
  readonly #servers = new Map<number, TailRow[]>();

  constructor(conn: BlockConnection) {
    this.#conn = conn;
  }

  /** Whether the cache can answer the filter (a needle with a NUL could match across two columns here). */
  static usable(f: RowFilter): boolean {
    return f.needle === undefined || !f.needle.includes('\0');
  }

  rows(serverKey: number): readonly TailRow[] {
    let rows = this.#servers.get(serverKey);
    if (rows === undefined) {
      rows = this.#conn
        .prepare('SELECT created_at, id, stream, level, type, resource, message, metadata, log_type FROM tail WHERE server_key = ? ORDER BY created_at, id')
        .all(serverKey)
        .map((row) => {
          const metadata = row['metadata'];
          return {
            createdAt: num(row['created_at']),
            id: str(row['id']),
            stream: str(row['stream']),
            type: foldAscii(str(row['type'])),
            resource: foldAscii(str(row['resource'])),
            logType: str(row['log_type']) === 'photo' ? 'photo' : 'text',
            text: searchText(str(row['message']), typeof metadata === 'string' ? metadata : null, str(row['type']), str(row['level']), str(row['resource'])),
          } satisfies TailRow;
        });
      this.#servers.set(serverKey, rows);
    }
    return rows;
  }

  /**
   * Records committed to the tail (appended in key order to a loaded copy; most arrive after its last row). A
   * server whose copy is not loaded costs nothing here: ingest without searches makes no row of the copy.
   */
  added(serverKey: number, records: readonly LogRecord[]): void {
    const list = this.#servers.get(serverKey);
    if (list === undefined) return;
    for (const record of records) {
      const row = tailRowOf(record);
      const last = list[list.length - 1];
      if (last === undefined || byKey(last, row) < 0) {
        list.push(row);
        continue;
      }
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (byKey(list[mid]!, row) < 0) lo = mid + 1;
        else hi = mid;
      }
      list.splice(lo, 0, row);
    }
  }

  /** The server's tail changed otherwise (a seal, a delete): its copy is read again when next needed. */
  drop(serverKey?: number): void {
    if (serverKey === undefined) this.#servers.clear();
    else this.#servers.delete(serverKey);
  }
}
