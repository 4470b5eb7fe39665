/**
 * GET /players/{id}/logs: the player's log ids from the player store, the logs from the log store by key,
 * keyset-paged by an opaque cursor (the position of the page's last log). A log gone from the log store
 * since (deleted in a race with the player store's upkeep) is skipped.
 */
import type { LogPosition, LogRecord, LogStore, PlayerStore, PlayerTimelineQuery } from '@skald/ports';

export interface PlayerTimelineDeps {
  readonly players: PlayerStore;
  readonly logStore: Pick<LogStore, 'getByKeys'>;
}

/** How many reads of the player store one page may take when it meets logs gone from the log store. */
const MAX_ROUNDS = 4;

export async function playerLogPage(deps: PlayerTimelineDeps, query: PlayerTimelineQuery): Promise<{ logs: LogRecord[]; next: LogPosition | null }> {
  const found: LogRecord[] = [];
  let cursor = query.before;
  let exhausted = false;
  // One more than the page: whether a next page exists.
  for (let round = 0; round < MAX_ROUNDS && !exhausted && found.length <= query.limit; round++) {
    const want = query.limit + 1 - found.length;
    const refs = await deps.players.timeline({
      serverId: query.serverId,
      playerId: query.playerId,
      limit: want,
      ...(cursor === undefined ? {} : { before: cursor }),
      ...(query.logType === undefined ? {} : { logType: query.logType }),
    });
    if (refs.length < want) exhausted = true;
    if (refs.length === 0) break;
    cursor = refs[refs.length - 1]!;
    const keys = refs.map((ref) => ({ createdAt: ref.at, id: ref.logId }));
    const records = new Map((await deps.logStore.getByKeys(query.serverId, keys)).map((record) => [record.id, record]));
    for (const ref of refs) {
      const record = records.get(ref.logId);
      if (record !== undefined) found.push(record);
    }
  }
  if (found.length > query.limit) {
    const last = found[query.limit - 1]!;
    return { logs: found.slice(0, query.limit), next: { at: last.createdAt, logId: last.id } };
  }
  // Rounds used up on missing logs: the client goes on from where this page stopped reading.
  return { logs: found, next: exhausted || cursor === undefined ? null : cursor };
}

/** The cursor a client passes back as `before`: opaque to it. */
export function encodeCursor(position: LogPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.logId])).toString('base64url');
}

export function decodeCursor(cursor: string): LogPosition | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [at, logId] = value as unknown[];
    if (typeof at !== 'number' || !Number.isSafeInteger(at) || typeof logId !== 'string' || logId.length > 200) return null;
    return { at, logId };
  } catch {
    return null;
  }
}
