/**
 * Why a backup run failed, in words a server owner can act on. Driver messages are never passed on: they
 * can carry the database user and the client's host ("Access denied for user 'x'@'1.2.3.4'"), so every
 * failure is mapped here to a reason of our own. Refused, timed-out and unreachable connections read the
 * same, so a run cannot be used to probe which ports of a host are open.
 */

/** A failure whose message is already a reason fit for the owner. */
export class DumpFailure extends Error {
  override readonly name = 'DumpFailure';
}

export interface FailureContext {
  /** The host and port as the owner entered them (never the resolved address). */
  readonly host: string;
  readonly port: number;
}

const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
]);

const LOST_CODES = new Set(['PROTOCOL_CONNECTION_LOST', 'ECONNRESET', 'EPIPE', 'ER_SERVER_SHUTDOWN', 'ER_CONNECTION_KILLED', 'ER_QUERY_INTERRUPTED']);

function codeOf(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : '';
}

/** A driver error code is an identifier such as ER_TABLEACCESS_DENIED_ERROR: safe to show, useful to search. */
function safeCode(code: string): string {
  return /^[A-Z][A-Z0-9_]{1,63}$/.test(code) ? code : 'unknown error';
}

export function failureReason(error: unknown, context: FailureContext): string {
  if (error instanceof DumpFailure) return error.message;
  const code = codeOf(error);
  const where = `${context.host}:${context.port}`;
  if (code === 'ER_ACCESS_DENIED_ERROR' || code === 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR') return 'Access denied for the database user (check the user name and password)';
  if (code === 'ER_DBACCESS_DENIED_ERROR') return 'The database user has no access to this database';
  if (code === 'ER_BAD_DB_ERROR') return 'The database does not exist';
  if (CONNECT_CODES.has(code) || (error instanceof Error && /connect ETIMEDOUT|connect timeout/i.test(error.message))) {
    return `Could not connect to ${where}`;
  }
  if (code === 'HANDSHAKE_SSL_ERROR' || code === 'HANDSHAKE_NO_SSL_SUPPORT' || code.startsWith('HANDSHAKE_')) return `Could not connect to ${where} (the server's handshake failed)`;
  if (LOST_CODES.has(code)) return 'Lost the connection to the database during the backup';
  if (code === 'ER_TABLE_DEF_CHANGED') return 'A table was altered during the backup; the next run will try again';
  if (code === 'ER_TABLEACCESS_DENIED_ERROR' || code === 'ER_COLUMNACCESS_DENIED_ERROR' || code === 'ER_SPECIFIC_ACCESS_DENIED_ERROR' || code === 'ER_PROCACCESS_DENIED_ERROR') {
    return `The database user lacks a privilege the backup needs (${code})`;
  }
  if (code.startsWith('ER_')) return `The database refused a query of the backup (${safeCode(code)})`;
  return 'The backup failed because of an internal error';
}
