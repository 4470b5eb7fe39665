/** What both player-store adapters do the same way: ids, linking and joining, searches, timeline merging, the queue's format. */
import { IDENTIFIER_KINDS, NON_LINKING_IDENTIFIER_KINDS, PLAYER_NAME_KEYS } from '@skald/contracts/constants';
import type { LogPosition, PlayerLogRef, QueuedLog } from '@skald/ports';

/** Player ids are positive integers written in decimal; anything else names no player. */
export function playerIdOf(id: string): number | null {
  if (!/^[1-9]\d{0,14}$/.test(id)) return null;
  return Number(id);
}

const KINDS: ReadonlySet<string> = new Set(IDENTIFIER_KINDS);
/** `ip:`, `token:`: compared with startsWith (no string cut and hashed per identifier: it runs per recorded identifier). */
const NON_LINKING_PREFIXES = NON_LINKING_IDENTIFIER_KINDS.map((kind) => `${kind}:`);

/** Whether an identifier makes and joins players (`ip:` and `token:` are only listed: shared connections, hardware). */
export function isLinking(identifier: string): boolean {
  for (const prefix of NON_LINKING_PREFIXES) if (identifier.startsWith(prefix)) return false;
  return true;
}

/**
 * How recording a mention joins the players its linking identifiers already belong to: the oldest (smallest
 * id) survives and the others merge into it; null when none does (a new player).
 */
export function joinOf(owners: ReadonlySet<number>): { readonly survivor: number; readonly merged: readonly number[] } | null {
  if (owners.size === 0) return null;
  const survivor = Math.min(...owners);
  return { survivor, merged: [...owners].filter((owner) => owner !== survivor) };
}

/** `License:abc` → `license:abc`; null when the text is no `<known kind>:<value>`. */
export function normalizedIdentifier(text: string): string | null {
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) return null;
  const kind = text.slice(0, colon).toLowerCase();
  return KINDS.has(kind) ? `${kind}:${text.slice(colon + 1)}` : null;
}

export interface PlayerSearch {
  /** Lower-case text a name must contain. */
  readonly folded: string;
  /** Identifiers matching exactly: the search itself when it is one, else the search as the value of every kind. */
  readonly identifiers: readonly string[];
}

/** A list search; null when blank (every player). */
export function playerSearchOf(search: string | undefined): PlayerSearch | null {
  const text = search?.trim() ?? '';
  if (text === '') return null;
  const exact = normalizedIdentifier(text);
  const identifiers = exact !== null ? [exact] : /\s/.test(text) ? [] : IDENTIFIER_KINDS.map((kind) => `${kind}:${text}`);
  return { folded: foldName(text), identifiers };
}

/** Names are searched case-insensitively (Unicode lower case, not only ASCII). */
export function foldName(name: string): string {
  return name.toLowerCase();
}

/** Newest first: later `at`, then the greater log id (plain string order), as the log store orders. */
export function newerFirst(a: LogPosition, b: LogPosition): number {
  if (a.at !== b.at) return b.at - a.at;
  return a.logId < b.logId ? 1 : a.logId > b.logId ? -1 : 0;
}

/** The newest `limit` of two lists each already newest first. */
export function newestOf(a: readonly PlayerLogRef[], b: readonly PlayerLogRef[], limit: number): PlayerLogRef[] {
  return [...a, ...b].sort(newerFirst).slice(0, limit);
}

/** A queued log as JSON: [serverId, logId, at, photo 0|1, expiresAt, message, metadata]. */
type PackedLog = [string, string, number, 0 | 1, number, string, Readonly<Record<string, unknown>> | null];

/** Queued logs as the queue keeps them: compact JSON (no key names repeated per log). */
export function packQueued(logs: readonly QueuedLog[]): string {
  return JSON.stringify(logs.map((log): PackedLog => [log.serverId, log.logId, log.at, log.logType === 'photo' ? 1 : 0, log.expiresAt, log.message, log.metadata]));
}

export function unpackQueued(json: string): QueuedLog[] {
  return (JSON.parse(json) as PackedLog[]).map(([serverId, logId, at, photo, expiresAt, message, metadata]) => ({
    serverId,
    logId,
    at,
    logType: photo === 1 ? 'photo' : 'text',
    expiresAt,
    message,
    metadata,
  }));
}

/** The first queue layout: each log's extracted players, [[linking], [listed], [names]] after its keys. */
type MentionsQueueLog = [string, string, number, 0 | 1, number, ...(readonly [readonly string[], readonly string[], readonly string[]])[]];

/**
 * A queue row of the first layout as logs whose metadata extracts to the same players: one object per
 * player (a group of its own) holding its identifiers and up to one name per name key.
 */
export function queuedFromMentions(json: string): string {
  return JSON.stringify(
    (JSON.parse(json) as MentionsQueueLog[]).map(([serverId, logId, at, photo, expiresAt, ...players]): PackedLog => {
      const objects = players.map(([linking, listed, names]) => {
        const object: Record<string, unknown> = { identifiers: [...linking, ...listed] };
        PLAYER_NAME_KEYS.forEach((key, k) => {
          if (names[k] !== undefined) object[key] = names[k];
        });
        return object;
      });
      return [serverId, logId, at, photo, expiresAt, '', { players: objects }];
    }),
  );
}
