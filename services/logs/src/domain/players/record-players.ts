/**
 * What a stored log gives the player store: its players (domain/identity), extracted so that a failure for
 * one log never costs the others (it is logged, and the log has no players).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { LogMentions, LogRecord, QueuedLog } from '@skald/ports';
import { extractPlayers } from '../identity/extract-players.ts';

/** Each queued log's players; a log whose extraction throws is left out (and logged). */
export function mentionsOf(logs: readonly QueuedLog[], log: Pick<FastifyBaseLogger, 'warn'>): LogMentions[] {
  const mentions: LogMentions[] = [];
  for (const queued of logs) {
    try {
      const players = extractPlayers(queued.message, queued.metadata);
      if (players.length === 0) continue;
      mentions.push({ logId: queued.logId, serverId: queued.serverId, at: queued.at, logType: queued.logType, expiresAt: queued.expiresAt, players });
    } catch (error) {
      log.warn({ err: error, logId: queued.logId, serverId: queued.serverId }, 'logs: identity extraction failed for a log; it is stored without players');
    }
  }
  return mentions;
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
