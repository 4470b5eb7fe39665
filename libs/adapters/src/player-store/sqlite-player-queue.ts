/**
 * The embedded player store's queue (stored logs waiting for their players to be recorded) in a file of its
 * own beside players.db (`players-queue.db`). Its own file, so its own write lock: the recorder's runs hold
 * players.db's lock for a whole run (tens of milliseconds) on their thread, and the store path's queue row
 * must never wait for one. Recording drops the rows it covered after its commit; a crash in between records
 * them again, which changes nothing (recording is idempotent).
 */
import { DatabaseSync } from 'node:sqlite';
import { registerPassiveCheckpoints } from '../sqlite/wal-checkpointer.ts';
import type { WalCheckpointer, WalFile } from '../sqlite/wal-checkpointer.ts';
import { PLAYER_PRAGMAS_SQL } from './sqlite-player-schema.ts';

const QUEUE_SCHEMA_SQL = `
-- One row per queue() call: the logs' keys, message and metadata as compact JSON (player-store-shared.ts packQueued).
CREATE TABLE IF NOT EXISTS player_queue (
  seq INTEGER PRIMARY KEY,
  logs TEXT NOT NULL
);
`;

/** players.db -> players-queue.db (an in-memory store keeps an in-memory queue). */
export function queueFileOf(file: string): string {
  return file === ':memory:' ? ':memory:' : `${file.replace(/\.db$/, '')}-queue.db`;
}

export class SqlitePlayerQueue {
  readonly #db: DatabaseSync;
  readonly #wal: WalFile | null;

  constructor(file: string, checkpointer: WalCheckpointer | null) {
    this.#db = new DatabaseSync(file);
    this.#db.exec(PLAYER_PRAGMAS_SQL);
    // Rows live for a run or two: a small page cache is plenty.
    this.#db.exec('PRAGMA cache_size = -4096');
    this.#db.exec(QUEUE_SCHEMA_SQL);
    this.#wal = registerPassiveCheckpoints(this.#db, file, checkpointer);
  }

  add(json: string): void {
    this.#db.prepare('INSERT INTO player_queue (logs) VALUES (?)').run(json);
    this.#wal?.wrote();
  }

  /** The rows in queue order (read lazily: a caller stops when it has enough). */
  *rows(): Generator<{ readonly seq: number; readonly logs: string }> {
    for (const row of this.#db.prepare('SELECT seq, logs FROM player_queue ORDER BY seq').iterate()) {
      yield { seq: Number(row['seq']), logs: String(row['logs']) };
    }
  }

  dropThrough(seq: number): void {
    this.#db.prepare('DELETE FROM player_queue WHERE seq <= ?').run(seq);
    this.#wal?.wrote();
  }

  async close(): Promise<void> {
    if (!this.#db.isOpen) return;
    await this.#wal?.close();
    this.#db.close();
  }
}
