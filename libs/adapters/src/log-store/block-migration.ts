/**
 * Moving a row-store file's logs into blocks, in place (block-store-schema.ts made the block tables beside the
 * row store's `logs` table and dropped its search index). Each step is one transaction: a chunk of one
 * server's oldest rows, in key order, becomes blocks per stream (at most `blockRows` rows each) and is
 * deleted from `logs`, so after a crash each log is in `logs` or in a block, never both or neither; the
 * rollups already count these logs and stay as they are. Once `logs` is empty it is dropped. The freed pages
 * stay in the file for the blocks to come (no VACUUM: it would rewrite the whole file while the store waits).
 */
import type { BlockConnection } from './block-store-connection.ts';
import type { BlockDirectory } from './block-directory.ts';
import { TAIL_COLUMNS } from './block-walk.ts';
import { foldAscii } from './block-token-dictionary.ts';
import { num, str, toRecord } from './sqlite-log-rows.ts';
import type { LogRecord } from '@skald/ports';

/**
 * Moves one chunk of `logs` into blocks; answers false once nothing is left (the table is then dropped). Its
 * transaction waits for the write lock off the event loop (BlockConnection.write): it runs beside ingest.
 */
export async function migrateChunk(conn: BlockConnection, directory: BlockDirectory, blockRows: number): Promise<boolean> {
  if (!conn.migrating) return false;
  const more = await conn.write(() => {
    const first = conn.prepare('SELECT server_key FROM logs LIMIT 1').get();
    if (first === undefined) {
      conn.db.exec('DROP TABLE logs');
      return false;
    }
    const serverKey = num(first['server_key']);
    const rows = conn.prepare(`SELECT ${TAIL_COLUMNS} FROM logs WHERE server_key = ? ORDER BY created_at, id LIMIT ?`).all(serverKey, blockRows * 4);
    const streams = new Map<string, LogRecord[]>();
    for (const row of rows) {
      const record = toRecord('', row);
      const stream = foldAscii(record.level);
      let list = streams.get(stream);
      if (list === undefined) streams.set(stream, (list = []));
      list.push(record);
    }
    for (const [stream, records] of streams) {
      for (let i = 0; i < records.length; i += blockRows) directory.write(serverKey, stream, records.slice(i, i + blockRows));
    }
    const last = rows[rows.length - 1]!;
    const at = num(last['created_at']);
    conn.prepare('DELETE FROM logs WHERE server_key = ? AND (created_at < ? OR (created_at = ? AND id <= ?))').run(serverKey, at, at, str(last['id']));
    return true;
  });
  if (!more) conn.rowTableDropped();
  return more;
}
