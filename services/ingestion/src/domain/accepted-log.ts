/**
 * A validated log becomes the `logs.batch-accepted` event's log: id, time and arrival assigned here, at the
 * source. The log's time (createdAt) is the client's own when it sent one within the window around the
 * arrival (log-time.ts), else the arrival; `receivedAt` is set only when the two differ (the event's rule).
 */
import type { AcceptedLog } from '@skald/contracts';
import type { LogInput } from './log-input.ts';
import { windowRefusal, withRefusalNote } from './log-time.ts';

export interface PhotoKeys {
  readonly imageKey: string;
  readonly thumbKey: string;
}

export function toAccepted(input: LogInput, id: string, receivedAt: number, photo?: PhotoKeys): AcceptedLog {
  let createdAt = receivedAt;
  let metadata = input.metadata;
  if (input.timestampSent !== null) {
    const refusal = input.timestamp === null ? 'unreadable' : windowRefusal(input.timestamp, receivedAt);
    if (refusal === null) createdAt = input.timestamp!;
    else metadata = withRefusalNote(metadata, input.timestampSent, refusal);
  }
  const logType = photo ? 'photo' : 'text';
  const imageKey = photo?.imageKey ?? null;
  const thumbKey = photo?.thumbKey ?? null;
  // Two literals rather than a property added afterwards: each shape keeps its fields in the object itself,
  // with no separate property store to allocate per log.
  if (createdAt === receivedAt) {
    return { id, createdAt, level: input.level, type: input.type, resource: input.resource, message: input.message, metadata, logType, imageKey, thumbKey };
  }
  return { id, createdAt, receivedAt, level: input.level, type: input.type, resource: input.resource, message: input.message, metadata, logType, imageKey, thumbKey };
}
