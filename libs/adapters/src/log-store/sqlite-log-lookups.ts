/**
 * Reads of the embedded log store by a log's key rather than by a query: the logs of given keys (a
 * player's timeline, erasure), one log by its id, and the logs around one (a log's context). Each is a
 * seek on the clustered key (server_key, created_at, id): the table has no other index that could serve them.
 */
import type { SQLOutputValue } from 'node:sqlite';
import type { LogKey, LogRecord, NeighbourDirection } from '@skald/ports';
import type { LogConnection } from './sqlite-log-connection.ts';
import { idTimeRanges, validateNeighbours } from './log-store-shared.ts';
import { PAGE_COLUMNS, str, toRecord } from './sqlite-log-rows.ts';

/**
 * neighbours(): a seek on the clustered key to (created_at, id) and a walk of LIMIT rows, towards older or
 * newer logs (the row-value comparison is what lets SQLite seek rather than filter).
 */
const NEIGHBOUR_SQL: Readonly<Record<NeighbourDirection, string>> = {
  older: `SELECT ${PAGE_COLUMNS} FROM logs WHERE server_key = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`,
  newer: `SELECT ${PAGE_COLUMNS} FROM logs WHERE server_key = ? AND (created_at, id) > (?, ?) ORDER BY created_at ASC, id ASC LIMIT ?`,
};

export function getByKeys(conn: LogConnection, serverId: string, keys: readonly LogKey[]): LogRecord[] {
  const serverKey = conn.serverKey(serverId, false);
  if (serverKey === undefined || keys.length === 0) return [];
  const select = conn.prepare(`SELECT ${PAGE_COLUMNS} FROM logs WHERE server_key = ? AND created_at = ? AND id = ?`);
  const records: LogRecord[] = [];
  for (const key of keys) {
    const row = select.get(serverKey, key.createdAt, key.id);
    if (row !== undefined) records.push(toRecord(serverId, row));
  }
  return records;
}

/**
 * The table has no index on the id alone (each would cost every insert; sqlite-log-schema.ts): a UUIDv7's
 * arrival time finds the row with one seek when the log's time is its arrival (nearly every log), else
 * the server's rows are read in ranges widening from that time (idTimeRanges); any other id reads the
 * server's rows.
 */
export function getById(conn: LogConnection, serverId: string, id: string): LogRecord | null {
  const serverKey = conn.serverKey(serverId, false);
  if (serverKey === undefined || typeof id !== 'string' || id === '') return null;
  const near = idTimeRanges(id);
  let row: Record<string, SQLOutputValue> | undefined;
  if (near === null) {
    row = conn.prepare(`SELECT ${PAGE_COLUMNS} FROM logs WHERE server_key = ? AND id = ?`).get(serverKey, id);
  } else {
    row = conn.prepare(`SELECT ${PAGE_COLUMNS} FROM logs WHERE server_key = ? AND created_at = ? AND id = ?`).get(serverKey, near.at, id);
    const inRange = conn.prepare(`SELECT ${PAGE_COLUMNS} FROM logs WHERE server_key = ? AND created_at BETWEEN ? AND ? AND id = ?`);
    for (const range of near.ranges) row ??= inRange.get(serverKey, range.from, range.to, id);
  }
  return row === undefined ? null : toRecord(serverId, row);
}

export function neighbours(conn: LogConnection, serverId: string, key: LogKey, direction: NeighbourDirection, limit: number): LogRecord[] {
  validateNeighbours(serverId, key, direction, limit);
  const serverKey = conn.serverKey(serverId, false);
  if (serverKey === undefined || limit === 0) return [];
  return conn
    .prepare(NEIGHBOUR_SQL[direction])
    .all(serverKey, key.createdAt, key.id, limit)
    .map((row) => toRecord(serverId, row));
}

/** EXPLAIN QUERY PLAN of a neighbours() walk (tests: it must seek the clustered key, whatever the server's size). */
export function explainNeighbours(conn: LogConnection, serverId: string, direction: NeighbourDirection): string {
  return conn.db
    .prepare(`EXPLAIN QUERY PLAN ${NEIGHBOUR_SQL[direction]}`)
    .all(conn.serverKey(serverId, false) ?? 0, 0, '', 1)
    .map((row) => str(row['detail']))
    .join('\n');
}
