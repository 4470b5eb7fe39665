/** The block log store's rollups (the row store's tables, sqlite-log-schema.ts): a batch's or a delete's delta written as one upsert per key. */
import type { BlockConnection } from './block-store-connection.ts';
import type { RollupDelta } from './sqlite-log-rollup-delta.ts';
import { DIM_NUMBER } from './sqlite-log-rows.ts';

export function applyRollupDelta(conn: BlockConnection, delta: RollupDelta): void {
  // min_expires only ever goes down (a lower bound, as in the row store); a delete's negative delta leaves it.
  const day = conn.prepare(
    'INSERT INTO rollup_day (server_key, day, log_type, n, min_expires) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n, min_expires = CASE WHEN excluded.n > 0 THEN min(min_expires, excluded.min_expires) ELSE min_expires END',
  );
  for (const d of delta.days()) day.run(d.serverKey, d.day, d.logType, d.n, d.minExpires);
  const dim = conn.prepare('INSERT INTO rollup_dim (server_key, dim, value, log_type, n) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n');
  for (const d of delta.dims()) dim.run(d.serverKey, DIM_NUMBER[d.dim], d.value, d.logType, d.n);
}
