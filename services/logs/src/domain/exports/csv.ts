/**
 * CSV per RFC 4180 (comma separator, CRLF line ends, a field holding a comma, a double quote, CR or LF is
 * quoted with its quotes doubled), UTF-8 without a byte-order mark, one header row.
 *
 * Formula neutralisation (OWASP "CSV injection"): a cell a spreadsheet would run as a formula, one that
 * starts with =, +, -, @, a tab or a carriage return, gets a leading apostrophe, which spreadsheets show
 * as text. Every cell is treated the same, numbers such as "-5" in a message included.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvRow(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** A JSON value as one cell's text ('' for null: no metadata). */
export function jsonCell(value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value);
}
