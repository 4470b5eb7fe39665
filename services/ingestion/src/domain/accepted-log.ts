/** A validated log becomes the `logs.batch-accepted` event's log: id and time assigned here, at the source. */
import type { AcceptedLog } from '@skald/contracts';
import type { LogInput } from './log-input.ts';

export interface PhotoKeys {
  readonly imageKey: string;
  readonly thumbKey: string;
}

export function toAccepted(input: LogInput, id: string, createdAt: number, photo?: PhotoKeys): AcceptedLog {
  return {
    id,
    createdAt,
    level: input.level,
    type: input.type,
    resource: input.resource,
    message: input.message,
    metadata: input.metadata,
    logType: photo ? 'photo' : 'text',
    imageKey: photo?.imageKey ?? null,
    thumbKey: photo?.thumbKey ?? null,
  };
}
