/**
 * What the embedded log store answers from its rollups alone (rollup_day, rollup_dim: kept on every write
 * and delete, so exact and never a scan of the logs): a server's stats, facets and counts, a query's total
 * when its filters are ones the rollups record, and how many rows a filter value holds (which access path
 * or index a query takes).
 */
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import type { LogQuery, LogStats, LogType } from '@skald/ports';
import { DAY_MS, StatsBuilder, assertLogType, dayString, isDayAligned, parseDay, present } from './log-store-shared.ts';
import { DIM_BY_NAME, num, str } from './sqlite-log-rows.ts';

/** What the rollup reads need of a connection (the row store's and the block store's both have it). */
export interface RollupConnection {
  prepare(sql: string): StatementSync;
  serverKey(serverId: string, create: boolean): number | undefined;
}

/**
 * The LogStore port's stats, facets and count, answered from the rollups: the row store and the block store
 * keep the same rollup tables, so both extend this with their connection.
 */
export abstract class RollupAnsweredLogStore {
  readonly #rollups: RollupConnection;

  protected constructor(rollups: RollupConnection) {
    this.#rollups = rollups;
  }

  async stats(serverId: string, range: { readonly fromDay: string; readonly toDay: string }): Promise<LogStats> {
    return stats(this.#rollups, serverId, range);
  }

  async facets(serverId: string): Promise<{ levels: string[]; types: string[]; resources: string[] }> {
    return facets(this.#rollups, serverId);
  }

  async count(serverId: string, logType?: LogType): Promise<number> {
    return count(this.#rollups, serverId, logType);
  }
}

export function stats(conn: RollupConnection, serverId: string, range: { readonly fromDay: string; readonly toDay: string }): LogStats {
  const fromDay = parseDay(range.fromDay);
  const toDay = parseDay(range.toDay);
  const builder = new StatsBuilder();
  const serverKey = conn.serverKey(serverId, false);
  if (serverKey === undefined) return builder.build();
  for (const row of conn.prepare('SELECT day, log_type, n FROM rollup_day WHERE server_key = ? AND n > 0').all(serverKey)) {
    const day = num(row['day']);
    const logType = str(row['log_type']);
    const n = num(row['n']);
    builder.addTotal(logType, n);
    if (day >= fromDay && day <= toDay) builder.addDay(dayString(day), logType, n);
  }
  for (const row of conn.prepare('SELECT dim, value, log_type, n FROM rollup_dim WHERE server_key = ? AND n > 0 ORDER BY log_type DESC').all(serverKey)) {
    const dim = DIM_BY_NAME[num(row['dim'])];
    if (dim !== undefined) builder.addDim(dim[1], str(row['value']), str(row['log_type']), num(row['n']));
  }
  return builder.build();
}

export function facets(conn: RollupConnection, serverId: string): { levels: string[]; types: string[]; resources: string[] } {
  const out = { levels: [] as string[], types: [] as string[], resources: [] as string[] };
  const serverKey = conn.serverKey(serverId, false);
  if (serverKey === undefined) return out;
  const lists = [out.levels, out.types, out.resources];
  const rows = conn.prepare('SELECT dim, value FROM rollup_dim WHERE server_key = ? AND n > 0 GROUP BY dim, value').all(serverKey);
  for (const row of rows) lists[num(row['dim'])]?.push(str(row['value']));
  // JS order (not NOCASE collation) so both adapters list facets identically.
  for (const list of lists) list.sort();
  return out;
}

export function count(conn: RollupConnection, serverId: string, logType?: LogType): number {
  if (logType !== undefined) assertLogType(logType);
  const serverKey = conn.serverKey(serverId, false);
  return serverKey === undefined ? 0 : serverCount(conn, serverKey, logType);
}

/** The total from rollup_day or rollup_dim, or null when the query has terms they do not record. */
export function rollupTotal(conn: RollupConnection, query: LogQuery, serverKey: number): number | null {
  // Rollups know nothing of ids or words: a total after an id or of a search is a count of the rows.
  if (present(query.search) || present(query.afterId)) return null;
  const logTypeSql = query.logType === undefined ? '' : ` AND log_type = '${query.logType}'`;
  const dims = DIM_BY_NAME.filter(([, name]) => present(query[name]));
  const hasRange = query.from !== undefined || query.to !== undefined;
  if (dims.length === 0 && isDayAligned(query.from, query.to)) {
    const dayParams: SQLInputValue[] = [serverKey];
    let rangeSql = '';
    if (query.from !== undefined) {
      rangeSql += ' AND day >= ?';
      dayParams.push(query.from / DAY_MS);
    }
    if (query.to !== undefined) {
      rangeSql += ' AND day <= ?';
      dayParams.push((query.to + 1) / DAY_MS - 1);
    }
    const row = conn.prepare(`SELECT coalesce(sum(n), 0) AS n FROM rollup_day WHERE server_key = ?${logTypeSql}${rangeSql}`).get(...dayParams);
    return num(row?.['n']);
  }
  if (dims.length === 1 && !hasRange) {
    const [dim, name] = dims[0]!;
    return dimCount(conn, serverKey, dim, query[name] ?? '', query.logType);
  }
  return null;
}

/** How many of the server's logs (of the log type, when given) have this value of the dimension. */
export function dimCount(conn: RollupConnection, serverKey: number, dim: number, value: string, logType?: LogType): number {
  const logTypeSql = logType === undefined ? '' : ` AND log_type = '${logType}'`;
  const row = conn.prepare(`SELECT coalesce(sum(n), 0) AS n FROM rollup_dim WHERE server_key = ? AND dim = ? AND value = ?${logTypeSql}`).get(serverKey, dim, value);
  return num(row?.['n']);
}

/** How many logs of the server (of the log type, when given) are stored. */
export function serverCount(conn: RollupConnection, serverKey: number, logType?: LogType): number {
  const logTypeSql = logType === undefined ? '' : ` AND log_type = '${logType}'`;
  return num(conn.prepare(`SELECT coalesce(sum(n), 0) AS n FROM rollup_day WHERE server_key = ?${logTypeSql}`).get(serverKey)?.['n']);
}
