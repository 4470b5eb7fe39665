/**
 * The connection to a customer's game database, with FIXED options the customer cannot influence
 * (reliability notes on mysql2: no `infileStreamFactory` and the LOCAL_FILES capability switched off, so a
 * rogue server asking for `LOAD DATA LOCAL INFILE` gets no file; no cleartext password plugin; no
 * multiple statements; rows as arrays, so no column name ever becomes an object key; no number or date
 * conversion). `address` is the one the outbound guard checked: the driver never resolves a name itself.
 */
import type { Connection, ConnectionOptions } from 'mysql2';

export interface SourceTarget {
  /** An IP address the outbound guard approved. */
  readonly address: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly database: string;
}

export type Cell = string | number | null;

export function sourceOptions(target: SourceTarget, connectTimeoutMs: number): ConnectionOptions {
  return {
    host: target.address,
    port: target.port,
    user: target.user,
    password: target.password,
    database: target.database,
    connectTimeout: connectTimeoutMs,
    charset: 'UTF8MB4_GENERAL_CI',
    flags: ['-LOCAL_FILES', '-MULTI_STATEMENTS'],
    multipleStatements: false,
    enableCleartextPlugin: false,
    insecureAuth: false,
    rowsAsArray: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    decimalNumbers: false,
    disableEval: true,
    enableKeepAlive: true,
  };
}

/**
 * Rejects once the connection is over: the server ended it, it failed, or we closed it (closeSource, with
 * the reason). mysql2 leaves a query that was in flight when the socket is destroyed unanswered, so every
 * wait on the source races this.
 */
const endings = new WeakMap<Connection, { readonly ended: Promise<never>; end(reason: Error): void }>();

export class SourceClosed extends Error {
  override readonly name = 'SourceClosed';
  readonly code = 'PROTOCOL_CONNECTION_LOST';
}

/** Connects, or rejects with the driver's error (mapped to a reason by failure.ts). */
export async function openSource(target: SourceTarget, connectTimeoutMs: number): Promise<Connection> {
  // Loaded on the first backup, not at start-up: the driver is ~80 modules most processes never use (idle RSS).
  const { default: mysql } = await import('mysql2');
  const connection = mysql.createConnection(sourceOptions(target, connectTimeoutMs));
  let end: (reason: Error) => void = () => undefined;
  const ended = new Promise<never>((_resolve, reject) => {
    end = reject;
  });
  ended.catch(() => undefined);
  endings.set(connection, { ended, end });
  // A fatal error while no query runs is emitted as 'error': without a listener it would end the process.
  connection.on('error', (error: Error) => end(error));
  connection.on('end', () => end(new SourceClosed('the server closed the connection')));
  await new Promise<void>((resolve, reject) => {
    connection.connect((error) => (error ? reject(error) : resolve()));
  });
  return connection;
}

/** Rejects when the connection ends (see `endings`); never resolves. */
export function whenEnded(connection: Connection): Promise<never> {
  return endings.get(connection)?.ended ?? new Promise<never>(() => undefined);
}

/** A catalog or session query; rows as arrays of text, numbers or null. */
export function queryRows(connection: Connection, sql: string, values: readonly (string | number)[] = []): Promise<Cell[][]> {
  const answered = new Promise<Cell[][]>((resolve, reject) => {
    connection.query({ sql, values: [...values], rowsAsArray: true }, (error, result) => {
      if (error) reject(error);
      else resolve(Array.isArray(result) ? (result as Cell[][]) : []);
    });
  });
  return Promise.race([answered, whenEnded(connection)]);
}

export function text(cell: Cell | undefined): string {
  return cell === null || cell === undefined ? '' : String(cell);
}

export function textOrNull(cell: Cell | undefined): string | null {
  return cell === null || cell === undefined ? null : String(cell);
}

/** Ends the connection; whatever waits on it fails with `reason`. */
export function closeSource(connection: Connection, reason: Error = new SourceClosed('closed')): void {
  endings.get(connection)?.end(reason);
  // destroy: no graceful QUIT round trip to a server that may be the reason we are closing.
  connection.destroy();
}
