/**
 * The photo limit's evictions, followed in the player store: the log store deleted a server's oldest photo
 * logs past the tier's maxPhotoLogs without naming them, so the players forget every photo log older than
 * the oldest photo log kept.
 */
import type { LogStore, PlayerStore } from '@skald/ports';

export async function forgetEvictedPhotos(deps: { readonly logStore: LogStore; readonly players: PlayerStore }, serverId: string, kept: number): Promise<void> {
  if (kept <= 0) {
    // None kept: every photo log of the server is gone.
    await deps.players.forgetBefore(serverId, { at: Number.MAX_SAFE_INTEGER, logId: '' }, 'photo');
    return;
  }
  const oldestKept = (await deps.logStore.query({ serverId, logType: 'photo', offset: kept - 1, limit: 1 })).items[0];
  // Fewer than `kept` left (deleted meanwhile): the next eviction catches up.
  if (oldestKept !== undefined) await deps.players.forgetBefore(serverId, { at: oldestKept.createdAt, logId: oldestKept.id }, 'photo');
}
