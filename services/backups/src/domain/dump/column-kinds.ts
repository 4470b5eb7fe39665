/**
 * How each column's value is written, from information_schema.COLUMNS.DATA_TYPE (the same on MySQL and
 * MariaDB). Text-protocol values of every other type (strings, ENUM, SET, JSON, dates and times with the
 * session time zone pinned to UTC, INET6, UUID) are the exact text to quote.
 */
export type ColumnKind = 'number' | 'bit' | 'binary' | 'text';

const NUMBER_TYPES = new Set(['tinyint', 'smallint', 'mediumint', 'int', 'integer', 'bigint', 'decimal', 'numeric', 'float', 'double', 'real', 'year']);

/** Written as 0x…: raw bytes (BINARY, BLOB) and geometry in the server's internal format, as mysqldump --hex-blob. */
const BINARY_TYPES = new Set([
  'binary',
  'varbinary',
  'tinyblob',
  'blob',
  'mediumblob',
  'longblob',
  'geometry',
  'point',
  'linestring',
  'polygon',
  'multipoint',
  'multilinestring',
  'multipolygon',
  'geometrycollection',
  'geomcollection',
]);

export function columnKind(dataType: string): ColumnKind {
  const type = dataType.toLowerCase();
  if (NUMBER_TYPES.has(type)) return 'number';
  if (type === 'bit') return 'bit';
  if (BINARY_TYPES.has(type)) return 'binary';
  return 'text';
}

/**
 * A generated column (VIRTUAL, STORED or PERSISTENT) is left out of INSERTs: the server computes it
 * again, and refuses a value for it. MySQL marks expression defaults `DEFAULT_GENERATED`, which are
 * ordinary columns.
 */
export function isGeneratedColumn(extra: string, generationExpression: string | null): boolean {
  if (/\b(VIRTUAL|STORED|PERSISTENT)\s+GENERATED\b/i.test(extra) || /^(VIRTUAL|PERSISTENT|STORED)$/i.test(extra.trim())) return true;
  return /\bDEFAULT_GENERATED\b/i.test(extra) ? false : generationExpression !== null && generationExpression !== '' && /GENERATED/i.test(extra);
}
