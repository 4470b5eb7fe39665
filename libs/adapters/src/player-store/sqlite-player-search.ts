/**
 * Which players a list search matches, as a condition on `players p`: a name through the trigram index of
 * player_search (a search of 3 characters or more; a shorter one has no trigram, so it scans the server's
 * names), an identifier through the owner index. Each part reads only the rows it matches: at 50,000 players
 * a search no longer reads every player's names row.
 */
import type { SQLInputValue } from 'node:sqlite';
import type { PlayerSearch } from './player-store-shared.ts';

/** A name search this long (in characters) or longer reads the trigram index. */
export const MIN_TRIGRAM_SEARCH = 3;

export interface SearchCondition {
  readonly sql: string;
  readonly params: readonly SQLInputValue[];
}

export function searchCondition(serverId: string, search: PlayerSearch): SearchCondition {
  const byName =
    [...search.folded].length >= MIN_TRIGRAM_SEARCH
      ? { sql: 'SELECT rowid FROM player_search_trigrams WHERE player_search_trigrams MATCH ?', params: [trigramPhrase(search.folded)] }
      : { sql: 'SELECT player_id FROM player_search WHERE server_id = ? AND instr(folded, ?) > 0', params: [serverId, search.folded] };
  return {
    sql: `p.id IN (${byName.sql} UNION SELECT player_id FROM player_identifiers WHERE server_id = ? AND identifier IN (SELECT value FROM json_each(?)))
      AND p.server_id = ? AND p.merged_into IS NULL`,
    params: [...byName.params, serverId, JSON.stringify(search.identifiers), serverId],
  };
}

/** Text as one FTS5 phrase: with the trigram tokenizer, the rows holding it as a substring. */
function trigramPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}
