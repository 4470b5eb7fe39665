/**
 * Identity at storage: the players each stored log names (domain/identity), recorded in the player store
 * after the logs themselves. Never in the way of storing logs: a log whose extraction fails is stored
 * without identity, and a player store that fails is logged, not retried (the batch's logs are stored).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { LogMentions, LogRecord, PlayerStore } from '@skald/ports';
import { extractPlayers } from '../identity/extract-players.ts';

export interface RecordPlayersDeps {
  readonly players: PlayerStore;
  readonly log: FastifyBaseLogger;
}

/** Each log's players; a log whose extraction throws is left out (and logged). */
export function mentionsOf(records: readonly LogRecord[], log: FastifyBaseLogger): LogMentions[] {
  const mentions: LogMentions[] = [];
  for (const record of records) {
    try {
      const players = extractPlayers(record.message, record.metadata);
      if (players.length === 0) continue;
      mentions.push({ logId: record.id, serverId: record.serverId, at: record.createdAt, logType: record.logType, expiresAt: record.expiresAt, players });
    } catch (error) {
      log.warn({ err: error, logId: record.id, serverId: record.serverId }, 'logs: identity extraction failed for a log; it is stored without players');
    }
  }
  return mentions;
}

export async function recordPlayers(deps: RecordPlayersDeps, records: readonly LogRecord[]): Promise<void> {
  const mentions = mentionsOf(records, deps.log);
  if (mentions.length === 0) return;
  try {
    await deps.players.record(mentions);
  } catch (error) {
    deps.log.error({ err: error, logs: mentions.length }, 'logs: recording the players of stored logs failed; the logs are stored');
  }
}

/** The linking identifiers a log names (what the player store keys players by), for forgetting it. */
export function linkingIdentifiersOf(record: Pick<LogRecord, 'message' | 'metadata'>): string[] {
  return extractPlayers(record.message, record.metadata).flatMap((player) => player.linking);
}

/**
 * Runs a player-store upkeep after the log store already changed (retention, cleanup, photo limit): a
 * failure is logged and leaves at most rows pointing at deleted logs, which timelines skip.
 */
export async function upkeep(log: FastifyBaseLogger, what: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    log.error({ err: error }, `logs: the player store failed to follow ${what}`);
  }
}
