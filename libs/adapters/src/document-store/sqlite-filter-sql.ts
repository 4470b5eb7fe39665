/**
 * Translates validated filter conditions into a SQLite WHERE clause over a JSON document column.
 *
 * Values are always bound parameters. Field names appear literally inside JSON paths ('$.field'), which
 * is safe only because query-validation restricts them to [A-Za-z_][A-Za-z0-9_]*; the literal form is
 * needed so that the expressions match the expression indexes created for IndexSpec.
 *
 * MongoDB compares values only within one type ("type bracketing") and `{f: null}` matches a missing
 * field. SQLite's json_extract maps true/false to 1/0 and orders numbers before text, so each
 * comparison carries a json_type guard to give the same answers as MongoDB.
 */
import type { SQLInputValue } from 'node:sqlite';
import type { Scalar } from '@skald/ports';
import type { FieldCondition, ValidatedSort } from './query-validation.ts';

export interface SqlFragment {
  readonly sql: string;
  readonly params: SQLInputValue[];
}

/** The SQL expression reading a top-level field; `_id` lives in its own primary-key column. */
export function fieldExpr(field: string): string {
  return field === '_id' ? '_id' : `json_extract(doc, '$.${field}')`;
}

function typeExpr(field: string): string {
  return field === '_id' ? `'text'` : `json_type(doc, '$.${field}')`;
}

const NUMBER_TYPES = `IN ('integer', 'real')`;

/** A predicate that is 1 or 0, never NULL, so that NOT(...) behaves. */
function equals(field: string, value: Scalar, params: SQLInputValue[]): string {
  const e = fieldExpr(field);
  if (value === null) return `${e} IS NULL`;
  if (typeof value === 'boolean') {
    params.push(value ? 1 : 0);
    return `(${e} IS ? AND ${typeExpr(field)} IS '${value ? 'true' : 'false'}')`;
  }
  params.push(value);
  if (typeof value === 'number') return `(${e} IS ? AND ${typeExpr(field)} ${NUMBER_TYPES} IS 1)`;
  return `(${e} IS ? AND ${typeExpr(field)} IS 'text')`;
}

function inList(field: string, values: readonly Scalar[], params: SQLInputValue[]): string {
  const e = fieldExpr(field);
  const strings = values.filter((v): v is string => typeof v === 'string');
  const numbers = values.filter((v): v is number => typeof v === 'number');
  const parts: string[] = [];
  // IN lists (not OR chains) so that an expression index can serve the lookup.
  if (strings.length > 0) {
    parts.push(`(${e} IN (${strings.map(() => '?').join(', ')}) AND ${typeExpr(field)} IS 'text')`);
    params.push(...strings);
  }
  if (numbers.length > 0) {
    parts.push(`(${e} IN (${numbers.map(() => '?').join(', ')}) AND ${typeExpr(field)} ${NUMBER_TYPES})`);
    params.push(...numbers);
  }
  for (const v of values) {
    if (typeof v === 'boolean') parts.push(equals(field, v, params));
  }
  if (values.includes(null)) parts.push(`${e} IS NULL`);
  return parts.length === 0 ? '0' : `(${parts.join(' OR ')})`;
}

const COMPARATORS = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

function conditionSql(c: FieldCondition, params: SQLInputValue[]): string {
  const e = fieldExpr(c.field);
  switch (c.op) {
    case 'eq':
      // Plain `=` for strings/numbers keeps the term indexable; the guard filters the rest.
      if (c.value !== null && typeof c.value !== 'boolean') {
        params.push(c.value);
        const guard = typeof c.value === 'number' ? `${typeExpr(c.field)} ${NUMBER_TYPES}` : `${typeExpr(c.field)} = 'text'`;
        return `${e} = ? AND ${guard}`;
      }
      return equals(c.field, c.value, params);
    case 'ne':
      return c.value === null ? `${e} IS NOT NULL` : `NOT ${equals(c.field, c.value, params)}`;
    case 'in':
      return inList(c.field, c.values, params);
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      params.push(c.value);
      const guard = typeof c.value === 'number' ? `${typeExpr(c.field)} ${NUMBER_TYPES}` : `${typeExpr(c.field)} = 'text'`;
      return `${e} ${COMPARATORS[c.op]} ? AND ${guard}`;
    }
  }
}

export function whereClause(conditions: readonly FieldCondition[]): SqlFragment {
  const params: SQLInputValue[] = [];
  if (conditions.length === 0) return { sql: '1', params };
  const sql = conditions.map((c) => `(${conditionSql(c, params)})`).join(' AND ');
  return { sql, params };
}

/** ORDER BY with `_id` as the final tie-breaker so that skip/limit pages are stable (same in Mongo). */
export function orderByClause(sort: readonly ValidatedSort[]): string {
  if (sort.length === 0) return 'rowid';
  const parts = sort.map((s) => `${fieldExpr(s.field)} ${s.direction === 1 ? 'ASC' : 'DESC'}`);
  if (!sort.some((s) => s.field === '_id')) parts.push('_id ASC');
  return parts.join(', ');
}
