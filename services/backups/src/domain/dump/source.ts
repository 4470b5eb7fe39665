/**
 * The connection to a customer's game database, with FIXED options the customer cannot influence
 * (reliability notes on mysql2: no `infileStreamFactory` and the LOCAL_FILES capability switched off, so a
 * rogue server asking for `LOAD DATA LOCAL INFILE` gets no file; no cleartext password plugin; no
 * multiple statements; rows as arrays, so no column name ever becomes an object key; no number or date
 * conversion). `address` is the one the outbound guard checked: the driver never resolves a name itself.
 */
import mysql from 'mysql2';
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

/** Connects, or rejects with the driver's error (mapped to a reason by failure.ts). */
export async function openSource(target: SourceTarget, connectTimeoutMs: number): Promise<Connection> {
  const connection = mysql.createConnection(sourceOptions(target, connectTimeoutMs));
  // A fatal error while no query runs is emitted as 'error': without a listener it would end the process.
  connection.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    connection.connect((error) => (error ? reject(error) : resolve()));
  });
  return connection;
}

/** A catalog or session query; rows as arrays of text, numbers or null. */
export function queryRows(connection: Connection, sql: string, values: readonly (string | number)[] = []): Promise<Cell[][]> {
  return new Promise((resolve, reject) => {
    connection.query({ sql, values: [...values], rowsAsArray: true }, (error, result) => {
      if (error) reject(error);
      else resolve(Array.isArray(result) ? (result as Cell[][]) : []);
    });
  });
}

export function text(cell: Cell | undefined): string {
  return cell === null || cell === undefined ? '' : String(cell);
}

export function textOrNull(cell: Cell | undefined): string | null {
  return cell === null || cell === undefined ? null : String(cell);
}

export function closeSource(connection: Connection): void {
  // destroy: no graceful QUIT round trip to a server that may be the reason we are closing.
  connection.destroy();
}
