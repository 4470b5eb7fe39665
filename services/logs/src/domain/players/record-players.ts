/**
 * What a stored log gives the player store: its players (domain/identity), extracted so that a failure for
 * one log never costs the others (it is logged, and the log has no players).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { LogMentions, LogRecord, RecordableLog } from '@skald/ports';
import { extractPlayers } from '../identity/extract-players.ts';
import type { PlayerGroup } from '../identity/extract-players.ts';
import { mayHoldIdentifier } from '../identity/identifiers.ts';

/** Each queued log's players; a log whose extraction throws is left out (and logged). */
export function mentionsOf(logs: readonly RecordableLog[], log: Pick<FastifyBaseLogger, 'warn'>): LogMentions[] {
  const mentions: LogMentions[] = [];
  for (const queued of logs) {
    try {
      const players = playersOf(queued);
      if (players.length === 0) continue;
      mentions.push({ logId: queued.logId, serverId: queued.serverId, at: queued.at, logType: queued.logType, expiresAt: queued.expiresAt, players });
    } catch (error) {
      log.warn({ err: error, logId: queued.logId, serverId: queued.serverId }, 'logs: identity extraction failed for a log; it is stored without players');
    }
  }
  return mentions;
}

/**
 * A queued log's players. Metadata given as JSON text (as the log store keeps it) is parsed only when it or
 * the message may hold an identifier: a log naming nobody costs one scan of its text.
 */
function playersOf(queued: RecordableLog): PlayerGroup[] {
  const { message, metadata } = queued;
  if (typeof metadata !== 'string') return extractPlayers(message, metadata);
  if (!mayHoldIdentifier(metadata) && !mayHoldIdentifier(message)) return [];
  const parsed: unknown = JSON.parse(metadata);
  return extractPlayers(message, isRecord(parsed) ? parsed : null);
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
