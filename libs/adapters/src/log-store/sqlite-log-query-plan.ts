/**
 * How the embedded log store reads a query's matches when the search index does not serve it: the access
 * path (the clustered key, the level index or the partial photo index, chosen by the rollup counts) and the
 * `FROM … WHERE …` of its filters, from which the page, the capped count and the scan are built.
 */
import type { SQLInputValue } from 'node:sqlite';
import type { LogQuery } from '@skald/ports';
import type { LogConnection } from './sqlite-log-connection.ts';
import { present } from './log-store-shared.ts';
import { dimCount, serverCount } from './sqlite-log-rollup-reads.ts';
import { DIM_BY_NAME, PAGE_COLUMNS, SEARCH_COLUMNS, likePattern } from './sqlite-log-rows.ts';
import { DIM_LEVEL } from './sqlite-log-schema.ts';

/** How a page is read: the clustered key, the level index or the partial photo index. */
type Access = 'key' | 'level' | 'photo';

export interface QueryPlan {
  /** `logs [INDEXED BY …] WHERE …` of the filters, for the page, count and scan statements. */
  readonly from: string;
  readonly pageSql: string;
  readonly cappedCountSql: string;
  readonly params: SQLInputValue[];
}

export function planQuery(conn: LogConnection, query: LogQuery, serverKey: number): QueryPlan {
  const access = chooseAccess(conn, query, serverKey);
  // A unary + keeps a term from being answered by an index (the column and its NOCASE collation stay),
  // so each filter the chosen access path does not serve is checked row by row on that path.
  const onlyFor = (path: Access): string => (access === path ? '' : '+');
  const where: string[] = ['server_key = ?'];
  const params: SQLInputValue[] = [serverKey];
  // Literal, validated logType: lets the planner use the partial photo index.
  if (query.logType !== undefined) where.push(`${onlyFor('photo')}log_type = '${query.logType}'`);
  for (const [, name] of DIM_BY_NAME) {
    const value = query[name];
    if (present(value)) {
      where.push(`${name === 'level' ? onlyFor('level') : '+'}${name} = ?`);
      params.push(value);
    }
  }
  if (query.from !== undefined) {
    where.push('created_at >= ?');
    params.push(query.from);
  }
  if (query.to !== undefined) {
    where.push('created_at <= ?');
    params.push(query.to);
  }
  if (present(query.afterId)) {
    where.push('id > ?');
    params.push(query.afterId);
  }
  if (present(query.search)) {
    where.push(`(${SEARCH_COLUMNS.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`);
    const pattern = likePattern(query.search);
    for (let i = 0; i < SEARCH_COLUMNS.length; i++) params.push(pattern);
  }
  const indexedBy = access === 'level' ? ' INDEXED BY logs_server_level' : access === 'photo' ? ' INDEXED BY logs_server_photo' : '';
  const from = `logs${indexedBy} WHERE ${where.join(' AND ')}`;
  return {
    from,
    pageSql: `SELECT ${PAGE_COLUMNS} FROM ${from} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    cappedCountSql: `SELECT count(*) AS n FROM (SELECT 1 FROM ${from} LIMIT ?)`,
    params,
  };
}

/**
 * Picks the access path by the rollup counts (exact, always fresh) rather than leaving it to the
 * planner, which has no statistics: the level index or the photo index when given, whichever holds
 * fewer of the server's rows, otherwise the clustered key (newest first, other filters checked per row).
 */
function chooseAccess(conn: LogConnection, query: LogQuery, serverKey: number): Access {
  let best: Access = 'key';
  let bestCount = Number.POSITIVE_INFINITY;
  if (query.logType === 'photo') {
    best = 'photo';
    bestCount = serverCount(conn, serverKey, 'photo');
  }
  if (present(query.level) && dimCount(conn, serverKey, DIM_LEVEL, query.level, query.logType) < bestCount) best = 'level';
  return best;
}
