/**
 * Builds the bus messages for accepted logs: `logs.batch-accepted` v1 in the event framework's envelope
 * `{ type, version, id, occurredAt, data }` with header `event-type: logs.batch-accepted.v1`, keyed by
 * server id so a server's batches stay in order.
 *
 * Large batches are split so that no message exceeds a size a broker accepts by default (Kafka's
 * message.max.bytes is 1 MB); all parts go in ONE publish call and the request succeeds only if all
 * of them are durably accepted.
 */
import { eventMessage, LOG_LIMITS, LogsBatchAcceptedEvent } from '@skald/contracts';
import type { AcceptedLog, LogsBatchAccepted } from '@skald/contracts';
import type { PublishInput } from '@skald/ports';
import { uuidv7 } from './uuidv7.ts';

/** Target upper bound of one message's JSON, below Kafka's 1 MB default with room for the envelope. */
export const MAX_MESSAGE_BYTES = 768 * 1024;
/** Per-log overhead of field names, ids and keys in the JSON. */
const LOG_OVERHEAD_BYTES = 256;

export function approxLogBytes(log: AcceptedLog): number {
  // UTF-16 length approximates UTF-8 bytes well enough for chunking; multi-byte text is rare in logs and
  // MAX_MESSAGE_BYTES leaves headroom for it.
  return (
    LOG_OVERHEAD_BYTES +
    log.message.length +
    log.type.length +
    log.resource.length +
    (log.metadata === null ? 4 : JSON.stringify(log.metadata).length)
  );
}

/**
 * Splits logs into messages of at most maxBytes (approximate JSON size) and at most maxLogs logs: the
 * event schema caps one batch at LOG_LIMITS.maxBatch, and the coalescing publisher merges the logs of
 * several requests, so a merged group can exceed it where one request never does.
 */
export function chunkLogs(logs: readonly AcceptedLog[], maxBytes: number = MAX_MESSAGE_BYTES, maxLogs: number = LOG_LIMITS.maxBatch): AcceptedLog[][] {
  const chunks: AcceptedLog[][] = [];
  let current: AcceptedLog[] = [];
  let size = 0;
  for (const log of logs) {
    const bytes = approxLogBytes(log);
    if (current.length > 0 && (size + bytes > maxBytes || current.length >= maxLogs)) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(log);
    size += bytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

export function batchMessages(serverId: string, logs: readonly AcceptedLog[], now: number): PublishInput[] {
  const occurredAt = new Date(now);
  return chunkLogs(logs).map((chunk) => {
    const data: LogsBatchAccepted = { serverId, logs: chunk };
    // The message id doubles as the envelope id. Validation is skipped: log-input.ts already enforced
    // every bound of the schema, and re-checking 1000 logs per request would cost the hot path.
    return eventMessage(LogsBatchAcceptedEvent, serverId, data, { id: uuidv7(now), occurredAt, validate: false });
  });
}
