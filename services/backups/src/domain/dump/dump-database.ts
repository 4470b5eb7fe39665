/**
 * The streaming dump: one consistent snapshot of the source (START TRANSACTION WITH CONSISTENT SNAPSHOT,
 * READ ONLY: what `mysqldump --single-transaction` does, and the source is never written), written as
 * plain SQL that the `mariadb`/`mysql` client restores:
 *   header (utf8mb4, UTC, no foreign-key or unique checks, NO_AUTO_VALUE_ON_ZERO)
 *   → tables (DROP + SHOW CREATE TABLE, AUTO_INCREMENT included) → their rows in multi-row INSERTs
 *   → routines → views (dependencies first) → triggers (after the rows, so restoring fires none)
 *   → footer ending in `-- Dump completed`.
 * Rows are read one table at a time from a streaming query; the generator is pulled by the compressor, and
 * a slow object store pauses the connection (tableRows), so memory stays flat whatever the table size.
 */
import type { Connection } from 'mysql2';
import { readCatalog } from './catalog.ts';
import type { DumpCatalog, DumpProgram, DumpTable } from './catalog.ts';
import { queryRows, text, whenEnded } from './source.ts';
import { quoteIdentifier, quoteText, SqlBuffer } from './sql-buffer.ts';

/** One INSERT statement grows to about this many bytes (mysqldump's net_buffer_length default). */
export const STATEMENT_BYTES = 1024 * 1024;

/** The sql_mode restores run under: zero in an AUTO_INCREMENT column stays zero. */
const RESTORE_SQL_MODE = 'NO_AUTO_VALUE_ON_ZERO';

/** Shared with the run's watchdog: whether the dump waits on the source, and whether it moves. */
export interface DumpProgress {
  /** True while the dump waits for the source (a query or the next row), false while it writes. */
  waiting: boolean;
  /** Grows with every answer and row: a watchdog seeing it still while `waiting` knows the source stalled. */
  ticks: number;
  /** Bytes of SQL produced. */
  bytes: number;
}

export interface DumpOptions {
  readonly progress: DumpProgress;
  /** Stops the dump with this error once the output passes the limit. */
  readonly maxBytes: number;
  readonly onTooLarge: () => Error;
  /** For the header. */
  readonly now: () => number;
}

async function waitFor<T>(progress: DumpProgress, work: Promise<T>): Promise<T> {
  progress.waiting = true;
  try {
    return await work;
  } finally {
    progress.waiting = false;
    progress.ticks += 1;
  }
}

/** Opens the snapshot. Session settings first: they shape how SHOW CREATE and the values read. */
async function beginSnapshot(connection: Connection, progress: DumpProgress): Promise<string> {
  const session = [
    "SET SESSION time_zone = '+00:00'",
    // Plain backquoted identifiers in SHOW CREATE whatever the server's default mode.
    "SET SESSION sql_mode = ''",
    'SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ',
    'START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY',
  ];
  for (const sql of session) await waitFor(progress, queryRows(connection, sql));
  // A paused reader (slow object store) must not make the server give up writing to us.
  await waitFor(progress, queryRows(connection, 'SET SESSION net_write_timeout = 600')).catch(() => undefined);
  const [version] = await waitFor(progress, queryRows(connection, 'SELECT VERSION(), DATABASE()'));
  return `${text(version?.[0])}`;
}

function header(out: SqlBuffer, database: string, version: string, now: number): void {
  out.text(
    [
      `-- Skald backup of database ${quoteIdentifier(database)}`,
      `-- Server version ${version.replace(/[^\w.+~-]/g, '')}, taken ${new Date(now).toISOString()}`,
      '-- Restore: mariadb <database> < this-file.sql  (or mysql)',
      '',
      'SET NAMES utf8mb4;',
      "SET TIME_ZONE = '+00:00';",
      'SET FOREIGN_KEY_CHECKS = 0;',
      'SET UNIQUE_CHECKS = 0;',
      `SET SQL_MODE = '${RESTORE_SQL_MODE}';`,
      'SET SQL_NOTES = 0;',
      'SET AUTOCOMMIT = 0;',
      '',
      '',
    ].join('\n'),
  );
}

function tableStructure(out: SqlBuffer, table: DumpTable): void {
  const name = quoteIdentifier(table.name);
  out.text(`--\n-- Table ${name}\n--\nDROP TABLE IF EXISTS ${name};\n${table.createSql};\n\n`);
}

const COMMA = Buffer.from(',', 'latin1');
const NULL = Buffer.from('NULL', 'latin1');
const ROW_OPEN = Buffer.from('(', 'latin1');
const ROW_NEXT = Buffer.from('),\n(', 'latin1');
const STATEMENT_END = Buffer.from(');\n', 'latin1');

/** Output chunks the writer may hold before the source is paused (backpressure towards the server). */
const PAUSE_AT_CHUNKS = 4;

/**
 * A table's rows as multi-row INSERTs. Rows arrive as events of a streaming query and are written at once
 * (no promise per row); when the finished chunks pile up the connection is paused until the consumer
 * pulled them, so the socket, not memory, holds what the object store cannot take yet.
 */
export async function* tableRows(connection: Connection, table: DumpTable, out: SqlBuffer, options: DumpOptions): AsyncGenerator<Buffer> {
  if (table.columns.length === 0) return;
  const columnList = table.columns.map((c) => quoteIdentifier(c.name)).join(',');
  const insert = Buffer.from(`INSERT INTO ${quoteIdentifier(table.name)} (${columnList}) VALUES\n`, 'utf8');
  const kinds = table.columns.map((c) => c.kind);
  const progress = options.progress;
  out.text(`--\n-- Rows of ${quoteIdentifier(table.name)}\n--\n`);
  let statementStart = -1;
  let ended = false;
  let failure: unknown = null;
  let paused = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    const resume = wake;
    wake = null;
    resume?.();
  };
  const writeRow = (row: (Buffer | null)[]) => {
    progress.ticks += 1;
    if (statementStart < 0) {
      out.bytes(insert);
      out.bytes(ROW_OPEN);
      statementStart = out.written;
    } else {
      out.bytes(ROW_NEXT);
    }
    for (let i = 0; i < kinds.length; i += 1) {
      if (i > 0) out.bytes(COMMA);
      const value = row[i];
      if (value === null || value === undefined) out.bytes(NULL);
      else if (kinds[i] === 'text') out.quoted(value);
      else if (kinds[i] === 'number') out.number(value);
      else if (kinds[i] === 'binary') out.hex(value);
      else out.bits(value);
    }
    if (out.written - statementStart >= STATEMENT_BYTES) {
      out.bytes(STATEMENT_END);
      statementStart = -1;
    }
    if (out.pendingChunks >= PAUSE_AT_CHUNKS && !paused) {
      paused = true;
      connection.pause();
    }
    if (out.pendingChunks > 0) notify();
  };
  const query = connection.query({ sql: `SELECT ${columnList} FROM ${quoteIdentifier(table.name)}`, rowsAsArray: true, typeCast: false });
  query.on('result', (row) => writeRow(row as unknown as (Buffer | null)[]));
  query.on('error', (error: unknown) => {
    failure = error;
    notify();
  });
  query.on('end', () => {
    ended = true;
    notify();
  });
  // A connection closed under the query (the watchdog, a stop) ends no event of it: fail from here.
  whenEnded(connection).catch((error: unknown) => {
    failure ??= error;
    notify();
  });
  for (;;) {
    if (out.pendingChunks > 0) {
      progress.bytes = out.written;
      if (out.written > options.maxBytes) throw options.onTooLarge();
      yield* out.drain();
      continue;
    }
    if (failure !== null) throw failure;
    if (ended) break;
    if (paused) {
      paused = false;
      // resume() first hands over the rows the driver held while paused, synchronously: they can fill the
      // buffer and pause the connection again before this loop waits, and their wake-up found nobody
      // waiting. Look at the state again instead of waiting for a row that a paused connection never sends
      // (the watchdog then failed a healthy backup with "The database stopped answering").
      connection.resume();
      continue;
    }
    progress.waiting = true;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    progress.waiting = false;
  }
  if (statementStart >= 0) out.bytes(STATEMENT_END);
  out.text('COMMIT;\n\n');
}

function program(out: SqlBuffer, item: DumpProgram): void {
  const name = quoteIdentifier(item.name);
  out.text(
    [
      `--\n-- ${item.kind.charAt(0)}${item.kind.slice(1).toLowerCase()} ${name}\n--`,
      `DROP ${item.kind} IF EXISTS ${name};`,
      `SET SQL_MODE = ${quoteText(item.sqlMode)};`,
      'DELIMITER ;;',
      `${item.createSql} ;;`,
      'DELIMITER ;',
      `SET SQL_MODE = '${RESTORE_SQL_MODE}';`,
      '',
      '',
    ].join('\n'),
  );
}

function views(out: SqlBuffer, catalog: DumpCatalog): void {
  for (const view of catalog.views) {
    const name = quoteIdentifier(view.name);
    out.text(`--\n-- View ${name}\n--\nDROP TABLE IF EXISTS ${name};\nDROP VIEW IF EXISTS ${name};\n${view.createSql};\n\n`);
  }
}

/**
 * Yields the dump of the connection's database as SQL chunks. The caller owns the connection (and closes
 * it, which also ends the read-only transaction).
 */
export async function* dumpDatabase(connection: Connection, database: string, options: DumpOptions): AsyncGenerator<Buffer> {
  const out = new SqlBuffer();
  const progress = options.progress;
  const version = await beginSnapshot(connection, progress);
  const catalog = await waitFor(progress, readCatalog(connection));
  header(out, database, version, options.now());
  for (const table of catalog.tables) tableStructure(out, table);
  for (const table of catalog.tables) yield* tableRows(connection, table, out, options);
  for (const routine of catalog.routines) program(out, routine);
  views(out, catalog);
  for (const trigger of catalog.triggers) program(out, trigger);
  out.text(`SET FOREIGN_KEY_CHECKS = 1;\nSET UNIQUE_CHECKS = 1;\nCOMMIT;\n-- Dump completed ${new Date(options.now()).toISOString()}\n`);
  const rest = out.flush();
  progress.bytes = out.written;
  if (out.written > options.maxBytes) throw options.onTooLarge();
  yield* rest;
}
