/** A stored log in its API shape (ApiLog in @skald/contracts, docs/spec/part-1.txt section 3), with signed image paths for photo logs. */
import type { ApiLog } from '@skald/contracts';
import type { LogRecord } from '@skald/ports';
import type { ImageUrlSigner } from './image-url.ts';

/** The fields of a log its API shape is made of (a stored log, or a case's copy of one). */
export type ApiLogSource = Pick<LogRecord, 'id' | 'createdAt' | 'receivedAt' | 'level' | 'type' | 'resource' | 'message' | 'metadata' | 'logType' | 'imageKey' | 'thumbKey'>;

export function toApiLog(record: ApiLogSource, signer: ImageUrlSigner, now: number): ApiLog {
  const createdAt = new Date(record.createdAt).toISOString();
  return {
    id: record.id,
    created_at: createdAt,
    // A log without a time of its own was received when it happened (no second date to format).
    received_at: record.receivedAt === undefined ? createdAt : new Date(record.receivedAt).toISOString(),
    level: record.level,
    type: record.type,
    resource: record.resource,
    message: record.message,
    metadata: record.metadata,
    log_type: record.logType,
    image_path: record.imageKey ? signer.url(record.id, 'full', record.imageKey, now) : null,
    thumb_path: record.thumbKey ? signer.url(record.id, 'thumb', record.thumbKey, now) : null,
  };
}
