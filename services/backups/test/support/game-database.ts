/**
 * A FiveM-like game database on the machine's MariaDB (127.0.0.1:3306, root without password), with every
 * column type the issue lists: utf8mb4 with emoji, BLOB/BINARY, JSON, DECIMAL, BIT, DATETIME(6) and
 * TIMESTAMP written under a non-UTC session zone, NULL beside empty strings, generated columns (virtual and
 * stored), AUTO_INCREMENT with a zero id, foreign keys, a view on a view, triggers, a procedure and a
 * function. Tests create uniquely named databases and drop them; `restoreInto` runs the `mariadb` client.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import mysql from 'mysql2/promise';
import type { Connection, RowDataPacket } from 'mysql2/promise';

export const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' } as const;

export function uniqueDatabaseName(label: string): string {
  return `skald_t_${label}_${randomBytes(4).toString('hex')}`;
}

export async function rootConnection(database?: string): Promise<Connection> {
  return mysql.createConnection({ ...MARIADB, ...(database ? { database } : {}), multipleStatements: true, charset: 'UTF8MB4_GENERAL_CI' });
}

/** True when the local MariaDB answers (the suites print why they skip otherwise). */
export async function mariadbAvailable(): Promise<boolean> {
  try {
    const c = await rootConnection();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

export async function dropDatabase(name: string): Promise<void> {
  const c = await rootConnection();
  try {
    await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
  } finally {
    await c.end();
  }
}

export async function createEmptyDatabase(name: string): Promise<void> {
  const c = await rootConnection();
  try {
    await c.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`);
  } finally {
    await c.end();
  }
}

const SCHEMA = `
CREATE TABLE players (
  id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  identifier VARCHAR(60) NOT NULL UNIQUE,
  name VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NULL,
  money DECIMAL(20,4) NOT NULL DEFAULT 0,
  bank BIGINT NOT NULL DEFAULT 0,
  ratio DOUBLE NULL,
  ratio_f FLOAT NULL,
  flags BIT(10) NULL,
  avatar BLOB NULL,
  token BINARY(16) NULL,
  inventory JSON NULL,
  last_seen DATETIME(6) NULL,
  updated_at TIMESTAMP(3) NULL DEFAULT NULL,
  born DATE NULL,
  played TIME(2) NULL,
  yr YEAR NULL,
  note TEXT NULL,
  job ENUM('unemployed','police','ambulance') NOT NULL DEFAULT 'unemployed',
  perms SET('a','b','c') NULL,
  latin VARCHAR(50) CHARACTER SET latin1 NULL,
  label VARCHAR(400) AS (CONCAT(identifier, ':', IFNULL(name, '-'))) VIRTUAL,
  money_cents DECIMAL(24,0) AS (money * 100) PERSISTENT
) ENGINE=InnoDB AUTO_INCREMENT=1000;

CREATE TABLE vehicles (
  plate VARCHAR(12) NOT NULL PRIMARY KEY,
  owner_id INT UNSIGNED NULL,
  mods JSON NULL,
  garage VARCHAR(40) NOT NULL DEFAULT '',
  CONSTRAINT fk_owner FOREIGN KEY (owner_id) REFERENCES players (id) ON DELETE CASCADE
) ENGINE=InnoDB;

CREATE TABLE money_log (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  player_id INT UNSIGNED NOT NULL,
  delta DECIMAL(20,4) NOT NULL
) ENGINE=InnoDB;

CREATE TABLE zero_ids (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, v VARCHAR(10) NOT NULL) ENGINE=InnoDB;

CREATE TABLE \`odd \`\`name\`\` table\` (\`weird col\` INT NOT NULL, \`ünïcødé\` VARCHAR(10) NULL) ENGINE=InnoDB;

CREATE VIEW rich_players AS SELECT id, name, money FROM players WHERE money > 1000;
CREATE VIEW top_rich AS SELECT name FROM rich_players WHERE money > 5000;

CREATE TRIGGER players_money_audit AFTER UPDATE ON players FOR EACH ROW
  INSERT INTO money_log (player_id, delta) VALUES (NEW.id, NEW.money - OLD.money);

CREATE TRIGGER vehicles_garage BEFORE INSERT ON vehicles FOR EACH ROW
  SET NEW.garage = IF(NEW.garage = '', 'legion', NEW.garage);

CREATE PROCEDURE add_money(IN pid INT UNSIGNED, IN amount DECIMAL(20,4))
BEGIN
  UPDATE players SET money = money + amount WHERE id = pid;
  SELECT money FROM players WHERE id = pid;
END;

CREATE FUNCTION fmt_money(m DECIMAL(20,4)) RETURNS VARCHAR(40) DETERMINISTIC
  RETURN CONCAT('$', FORMAT(m, 2));
`;

const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

/** The schema, tricky rows, and optionally `bigRows` extra players (INSERT … SELECT from MariaDB's sequence engine). */
export async function createGameDatabase(name: string, options: { bigRows?: number } = {}): Promise<void> {
  await createEmptyDatabase(name);
  const c = await rootConnection(name);
  try {
    // Values written under a non-UTC zone: a TIMESTAMP restored under another zone must not move.
    await c.query("SET time_zone = '+05:30'");
    for (const statement of SCHEMA.split(/;\n(?=\n|CREATE)/)) if (statement.trim()) await c.query(statement);
    const rows: unknown[][] = [
      ['license:aaa', 'Zoë 😀 "Quotes" \'single\' \\ back', '12345678901234.5678', '9223372036854775807', 1.0000000000000002, 3.14159, Buffer.from([0x02, 0xaa]),
        ALL_BYTES, randomBytes(16), '{"items":[{"name":"bread","count":3}],"emoji":"🍞","nested":{"a":null}}', '2024-02-29 23:59:59.999999',
        '2024-03-31 02:30:00.123', '1999-12-31', '838:59:59.99', 2155, 'line1\nline2\r\nnul\u0000ctrlz\u001aend', 'police', 'a,c', 'café ÿ'],
      ['license:bbb', '', '-0.0001', '-9223372036854775808', -1e300, -0.5, Buffer.from([0x00, 0x00]), Buffer.alloc(0), Buffer.alloc(16),
        '[]', '1970-01-01 00:00:00.000000', '1970-01-02 00:00:00.000', '0000-00-00', '-838:59:59.00', 1901, '', 'unemployed', '', ''],
      ['license:ccc', null, '0', '0', null, null, null, null, null, null, null, null, null, null, null, null, 'ambulance', null, null],
    ];
    for (const row of rows) {
      await c.query(
        `INSERT INTO players (identifier, name, money, bank, ratio, ratio_f, flags, avatar, token, inventory, last_seen, updated_at, born, played, yr, note, job, perms, latin)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        row,
      );
    }
    await c.query("UPDATE players SET money = money + 10 WHERE identifier = 'license:ccc'");
    await c.query("INSERT INTO vehicles (plate, owner_id, mods, garage) VALUES ('ABC 123', 1000, '{\"turbo\":true}', ''), ('NOOWNER', NULL, NULL, 'pier')");
    await c.query("SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO')");
    await c.query("INSERT INTO zero_ids (id, v) VALUES (0, 'zero'), (5, 'five')");
    await c.query('INSERT INTO `odd ``name`` table` VALUES (1, \'ö\'), (2, NULL)');
    if (options.bigRows) {
      await c.query(
        `INSERT INTO players (identifier, name, money, bank, ratio, flags, avatar, inventory, last_seen, updated_at, note, job)
         SELECT CONCAT('steam:', seq), CONCAT('Player ', seq, ' 🚗'), seq * 1.25, seq * 1000, seq / 7, seq % 1024,
                UNHEX(SHA2(seq, 256)), JSON_OBJECT('slot', seq, 'item', 'water'), NOW(6) - INTERVAL seq SECOND,
                NOW() - INTERVAL seq MINUTE, IF(seq % 3 = 0, NULL, REPEAT('x', seq % 50)), ELT(1 + seq % 3, 'unemployed', 'police', 'ambulance')
         FROM seq_1_to_${options.bigRows}`,
      );
    }
  } finally {
    await c.end();
  }
}

/** Restores a dump file with the `mariadb` client (the way an owner would). */
export async function restoreInto(database: string, file: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn('mariadb', ['-h', MARIADB.host, '-P', String(MARIADB.port), '-u', MARIADB.user, database], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`mariadb exited ${code}: ${stderr}`))));
    createReadStream(file).pipe(child.stdin);
  });
}

async function rows(c: Connection, sql: string, values: unknown[] = []): Promise<RowDataPacket[]> {
  const [result] = await c.query<RowDataPacket[]>(sql, values);
  return result;
}

/**
 * Everything a restore must reproduce: CHECKSUM TABLE and SHOW CREATE TABLE of every table (AUTO_INCREMENT
 * included), and the definitions of views, triggers and routines (with the database name taken out).
 */
export async function databaseFingerprint(name: string): Promise<Record<string, unknown>> {
  const c = await rootConnection(name);
  try {
    const tables = await rows(c, "SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY 1", [name]);
    const result: Record<string, unknown> = {};
    for (const { t } of tables) {
      const table = `\`${String(t).replaceAll('`', '``')}\``;
      const [checksum] = await rows(c, `CHECKSUM TABLE ${table} EXTENDED`);
      const [create] = await rows(c, `SHOW CREATE TABLE ${table}`);
      const [count] = await rows(c, `SELECT COUNT(*) AS n FROM ${table}`);
      result[`table:${String(t)}`] = { checksum: checksum?.Checksum, rows: count?.n, create: create?.['Create Table'] };
    }
    const strip = (text: unknown) => String(text).replaceAll(`\`${name}\`.`, '');
    for (const v of await rows(c, 'SELECT TABLE_NAME AS n, VIEW_DEFINITION AS d FROM information_schema.VIEWS WHERE TABLE_SCHEMA = ? ORDER BY 1', [name])) {
      result[`view:${String(v.n)}`] = strip(v.d);
    }
    for (const t of await rows(
      c,
      'SELECT TRIGGER_NAME AS n, ACTION_STATEMENT AS s, ACTION_TIMING AS w, EVENT_MANIPULATION AS e, EVENT_OBJECT_TABLE AS o, SQL_MODE AS m FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ? ORDER BY 1',
      [name],
    )) {
      result[`trigger:${String(t.n)}`] = { statement: strip(t.s), timing: t.w, event: t.e, table: t.o, sqlMode: t.m };
    }
    for (const r of await rows(
      c,
      'SELECT ROUTINE_NAME AS n, ROUTINE_TYPE AS t, ROUTINE_DEFINITION AS d, DTD_IDENTIFIER AS r, SQL_MODE AS m FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = ? ORDER BY 1',
      [name],
    )) {
      result[`routine:${String(r.n)}`] = { type: r.t, definition: strip(r.d), returns: r.r, sqlMode: r.m };
    }
    return result;
  } finally {
    await c.end();
  }
}
