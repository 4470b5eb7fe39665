/**
 * The small integer standing for each server id in the `servers` table (sqlite-log-schema.ts), which both the
 * row store's and the block store's files hold: every row and index entry carries it instead of the id.
 * Cached per connection; a key created in a transaction that rolled back is gone from the table, so the
 * connection forgets its cache when one does.
 */
import type { StatementSync } from 'node:sqlite';
import { num } from './sqlite-log-rows.ts';

export class ServerKeys {
  readonly #prepare: (sql: string) => StatementSync;
  readonly #keys = new Map<string, number>();

  constructor(prepare: (sql: string) => StatementSync) {
    this.#prepare = prepare;
  }

  /** The server's key (created when `create`); undefined for a server that never stored a log. */
  get(serverId: string, create: boolean): number | undefined {
    const cached = this.#keys.get(serverId);
    if (cached !== undefined) return cached;
    let row = this.#prepare('SELECT key FROM servers WHERE server_id = ?').get(serverId);
    if (row === undefined) {
      if (!create) return undefined;
      this.#prepare('INSERT INTO servers (server_id) VALUES (?)').run(serverId);
      row = this.#prepare('SELECT key FROM servers WHERE server_id = ?').get(serverId);
    }
    const key = num(row?.['key']);
    this.#keys.set(serverId, key);
    return key;
  }

  /** A transaction rolled back: the keys it created are gone from the table. */
  forget(): void {
    this.#keys.clear();
  }
}
