/**
 * What the dump contains, read from the source inside its snapshot transaction: base tables with their
 * columns, views, triggers and routines (stored procedures and functions). Definitions come from SHOW
 * CREATE …, as mysqldump takes them. Events and sequences' positions are not dumped (docs/BACKUPS.md).
 */
import type { Connection } from 'mysql2';
import { columnKind, isGeneratedColumn } from './column-kinds.ts';
import type { ColumnKind } from './column-kinds.ts';
import { DumpFailure } from './failure.ts';
import { queryRows, text, textOrNull } from './source.ts';
import { quoteIdentifier } from './sql-buffer.ts';

export interface TableColumn {
  readonly name: string;
  readonly kind: ColumnKind;
}

export interface DumpTable {
  readonly name: string;
  readonly createSql: string;
  /** The columns written in INSERTs (generated columns left out), in table order. */
  readonly columns: readonly TableColumn[];
}

export interface DumpView {
  readonly name: string;
  readonly createSql: string;
}

/** A trigger or routine with the sql_mode it was created under (its behaviour depends on it). */
export interface DumpProgram {
  readonly kind: 'TRIGGER' | 'PROCEDURE' | 'FUNCTION';
  readonly name: string;
  readonly createSql: string;
  readonly sqlMode: string;
}

export interface DumpCatalog {
  readonly tables: readonly DumpTable[];
  readonly views: readonly DumpView[];
  readonly routines: readonly DumpProgram[];
  readonly triggers: readonly DumpProgram[];
}

/**
 * `CREATE … DEFINER=`user`@`host` …` without the DEFINER clause, so the file restores under any account
 * (the restoring user becomes the definer). Only a clause before the object keyword is removed, never
 * text inside the body.
 */
export function withoutDefiner(createSql: string, keyword: 'VIEW' | 'TRIGGER' | 'PROCEDURE' | 'FUNCTION'): string {
  const match = /\s+DEFINER\s*=\s*(?:`(?:[^`]|``)*`|'(?:[^']|'')*'|[^\s@]+)(?:\s*@\s*(?:`(?:[^`]|``)*`|'(?:[^']|'')*'|[^\s]+))?/i.exec(createSql);
  const keywordAt = new RegExp(`\\s${keyword}\\s`, 'i').exec(createSql)?.index ?? -1;
  if (!match || keywordAt < 0 || match.index > keywordAt) return createSql;
  return createSql.slice(0, match.index) + createSql.slice(match.index + match[0].length);
}

/** Views in an order where each comes after the views it selects from (names found in its definition). */
export function orderViews(views: readonly DumpView[]): DumpView[] {
  const byName = new Map(views.map((view) => [view.name, view]));
  const ordered: DumpView[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (view: DumpView): void => {
    if (state.get(view.name) !== undefined) return;
    state.set(view.name, 'visiting');
    for (const other of views) {
      if (other.name !== view.name && view.createSql.includes(quoteIdentifier(other.name))) visit(byName.get(other.name)!);
    }
    state.set(view.name, 'done');
    ordered.push(view);
  };
  for (const view of views) visit(view);
  return ordered;
}

async function showCreate(connection: Connection, what: string, name: string, column: number): Promise<{ sql: string | null; sqlMode: string }> {
  const rows = await queryRows(connection, `SHOW CREATE ${what} ${quoteIdentifier(name)}`);
  const row = rows[0] ?? [];
  return { sql: textOrNull(row[column]), sqlMode: what === 'TABLE' || what === 'VIEW' ? '' : text(row[1]) };
}

function requireDefinition(sql: string | null, kind: string, name: string): string {
  // SHOW CREATE PROCEDURE answers NULL to a user who may not read the body: a dump without it would not restore.
  if (sql === null || sql === '') {
    throw new DumpFailure(`The database user cannot read the definition of ${kind.toLowerCase()} ${name} (see the backup user advice)`);
  }
  return sql;
}

export async function readCatalog(connection: Connection): Promise<DumpCatalog> {
  const tableRows = await queryRows(
    connection,
    'SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME',
  );
  const columnRows = await queryRows(
    connection,
    `SELECT TABLE_NAME, COLUMN_NAME, DATA_TYPE, EXTRA, GENERATION_EXPRESSION FROM information_schema.COLUMNS
     WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`,
  );
  const columnsOf = new Map<string, TableColumn[]>();
  for (const [table, column, dataType, extra, expression] of columnRows) {
    if (isGeneratedColumn(text(extra), textOrNull(expression))) continue;
    const list = columnsOf.get(text(table)) ?? [];
    list.push({ name: text(column), kind: columnKind(text(dataType)) });
    columnsOf.set(text(table), list);
  }

  const tables: DumpTable[] = [];
  const views: DumpView[] = [];
  for (const [nameCell, typeCell] of tableRows) {
    const name = text(nameCell);
    const type = text(typeCell);
    if (type === 'VIEW') {
      const { sql } = await showCreate(connection, 'VIEW', name, 1);
      views.push({ name, createSql: withoutDefiner(requireDefinition(sql, 'VIEW', name), 'VIEW') });
    } else {
      // BASE TABLE, SYSTEM VERSIONED (MariaDB) and SEQUENCE: SHOW CREATE TABLE gives their definition.
      const { sql } = await showCreate(connection, 'TABLE', name, 1);
      tables.push({ name, createSql: requireDefinition(sql, 'TABLE', name), columns: type === 'SEQUENCE' ? [] : (columnsOf.get(name) ?? []) });
    }
  }

  const routineRows = await queryRows(
    connection,
    `SELECT ROUTINE_NAME, ROUTINE_TYPE FROM information_schema.ROUTINES
     WHERE ROUTINE_SCHEMA = DATABASE() AND ROUTINE_TYPE IN ('PROCEDURE', 'FUNCTION') ORDER BY ROUTINE_TYPE, ROUTINE_NAME`,
  );
  const routines: DumpProgram[] = [];
  for (const [nameCell, typeCell] of routineRows) {
    const name = text(nameCell);
    const kind = text(typeCell) === 'FUNCTION' ? 'FUNCTION' : 'PROCEDURE';
    const { sql, sqlMode } = await showCreate(connection, kind, name, 2);
    routines.push({ kind, name, createSql: withoutDefiner(requireDefinition(sql, kind, name), kind), sqlMode });
  }

  const triggerRows = await queryRows(
    connection,
    `SELECT TRIGGER_NAME FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()
     ORDER BY EVENT_OBJECT_TABLE, ACTION_TIMING, EVENT_MANIPULATION, ACTION_ORDER`,
  );
  const triggers: DumpProgram[] = [];
  for (const [nameCell] of triggerRows) {
    const name = text(nameCell);
    const { sql, sqlMode } = await showCreate(connection, 'TRIGGER', name, 2);
    triggers.push({ kind: 'TRIGGER', name, createSql: withoutDefiner(requireDefinition(sql, 'TRIGGER', name), 'TRIGGER'), sqlMode });
  }

  return { tables, views: orderViews(views), routines, triggers };
}
