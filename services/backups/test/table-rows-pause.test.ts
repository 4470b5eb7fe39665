/**
 * A table's rows under backpressure: the dump pauses the connection when its output piles up and resumes
 * it once the chunks are taken. mysql2's resume() first replays, synchronously, the rows it held while
 * paused; when those fill the output again the connection is paused inside resume(). The dump then has to
 * drain and resume again, not wait for a row a paused connection never sends (the large-table backup once
 * failed with "The database stopped answering" that way on the loaded CI machine).
 */
import { EventEmitter } from 'node:events';
import type { Connection } from 'mysql2';
import { describe, expect, it } from 'vitest';
import { tableRows } from '../src/domain/dump/dump-database.ts';
import type { DumpProgress } from '../src/domain/dump/dump-database.ts';
import { CHUNK_BYTES, SqlBuffer } from '../src/domain/dump/sql-buffer.ts';

const ROW_TEXT = 'x'.repeat(1000);

/** Sends `total` rows in bursts; while paused it holds what arrives and replays it in resume(), as mysql2 does. */
class HoldingConnection {
  readonly #total: number;
  readonly #burst: number;
  #sent = 0;
  #paused = false;
  readonly #held: (Buffer | null)[][] = [];
  #query = new EventEmitter();

  constructor(total: number, burst: number) {
    this.#total = total;
    this.#burst = burst;
  }

  query(): EventEmitter {
    setImmediate(() => this.#flow());
    return this.#query;
  }

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    while (this.#held.length > 0) {
      this.#query.emit('result', this.#held.shift());
      // mysql2 stops replaying (and leaves the socket paused) when a row handler paused again.
      if (this.#paused) return;
    }
    setImmediate(() => this.#flow());
  }

  /** One burst of rows from the socket: delivered, or held while paused (the driver already read them). */
  #flow(): void {
    if (this.#sent === this.#total) {
      if (!this.#paused && this.#held.length === 0) this.#query.emit('end');
      return;
    }
    const end = Math.min(this.#total, this.#sent + this.#burst);
    for (; this.#sent < end; this.#sent += 1) {
      const row = [Buffer.from(String(this.#sent)), Buffer.from(ROW_TEXT)];
      if (this.#paused) this.#held.push(row);
      else this.#query.emit('result', row);
    }
    if (!this.#paused) setImmediate(() => this.#flow());
  }
}

describe('a table dumped under backpressure', () => {
  // timeout: streams enough rows through the rogue server to pause and resume the connection twice
  it('drains and resumes again when the rows replayed by resume() pause the connection again', async () => {
    // A burst of ~12 output chunks: after the pause at 4, the held rows alone fill the output again.
    const rowsPerBurst = Math.ceil((12 * CHUNK_BYTES) / ROW_TEXT.length);
    const total = rowsPerBurst * 5;
    const connection = new HoldingConnection(total, rowsPerBurst);
    const out = new SqlBuffer();
    const progress: DumpProgress = { waiting: false, ticks: 0, bytes: 0 };
    const table = { name: 'players', createSql: '', columns: [{ name: 'id', kind: 'number' as const }, { name: 'name', kind: 'text' as const }] };
    const options = { progress, maxBytes: Number.MAX_SAFE_INTEGER, onTooLarge: () => new Error('too large'), now: () => 0 };

    const chunks: Buffer[] = [];
    const dumped = (async () => {
      for await (const chunk of tableRows(connection as unknown as Connection, table, out, options)) {
        chunks.push(chunk);
        // A slow consumer (the object store), so the output piles up and the connection is paused.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const stalled = new Promise<'stalled'>((resolve) => setTimeout(() => resolve('stalled'), 10_000).unref());
    expect(await Promise.race([dumped.then(() => 'done' as const), stalled])).toBe('done');

    const sql = Buffer.concat([...chunks, ...out.flush()]).toString('latin1');
    // Every row once: the first of each statement after "VALUES\n(", the rest after "),\n(".
    const rows = sql.split('),\n(').length - 1 + (sql.split('VALUES\n(').length - 1);
    expect(rows).toBe(total);
    expect(sql.endsWith('COMMIT;\n\n')).toBe(true);
  });
});
