/**
 * A player's right to erasure (DELETE /players/{id}): every log and photo log that mentions one of its
 * identifiers, the photos' objects, then the player itself. The erased logs' identifiers are extracted
 * again, so the other players they name (a victim, a killer) lose them from their counts and timelines too.
 * Safe to repeat: a second call finds what the first left (nothing, once it finished).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { LogStore, ObjectStore, PlayerStore } from '@skald/ports';
import { deleteObjects } from '../store-batch.ts';
import { linkingIdentifiersOf } from './record-players.ts';

export interface ErasePlayerDeps {
  readonly players: PlayerStore;
  readonly logStore: Pick<LogStore, 'getByKeys' | 'deleteByKeys'>;
  readonly objects: ObjectStore;
  readonly log: FastifyBaseLogger;
}

/** Logs read, deleted and forgotten together. */
const ERASE_CHUNK = 500;

/** Erases the player's logs and the player; answers how many logs were deleted. */
export async function erasePlayer(deps: ErasePlayerDeps, serverId: string, playerId: string): Promise<number> {
  const refs = await deps.players.logsOf(serverId, playerId);
  let erased = 0;
  for (let start = 0; start < refs.length; start += ERASE_CHUNK) {
    const keys = refs.slice(start, start + ERASE_CHUNK).map((ref) => ({ createdAt: ref.at, id: ref.logId }));
    const records = await deps.logStore.getByKeys(serverId, keys);
    const forgotten = records.map((record) => ({ logId: record.id, at: record.createdAt, logType: record.logType, identifiers: linkingIdentifiersOf(record) }));
    const deleted = await deps.logStore.deleteByKeys(serverId, keys);
    erased += deleted.deletedCount;
    await deleteObjects(deps, deleted.objectKeys);
    await deps.players.forgetLogs(serverId, forgotten);
  }
  await deps.players.erase(serverId, playerId);
  return erased;
}
