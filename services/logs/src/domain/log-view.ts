/** The API shape of a log (spec 000 §3): snake_case field names, ISO time, signed image paths for photo logs. */
import type { LogRecord } from '@skald/ports';
import type { ImageUrlSigner } from './image-url.ts';

export interface ApiLog {
  readonly id: string;
  readonly created_at: string;
  readonly level: string;
  readonly type: string;
  readonly resource: string;
  readonly message: string;
  readonly metadata: Readonly<Record<string, unknown>> | null;
  readonly log_type: 'text' | 'photo';
  /** Relative, signed, expiring URL of the photo; null for text logs. */
  readonly image_path: string | null;
  /** Relative, signed, expiring URL of the thumbnail; null for text logs. */
  readonly thumb_path: string | null;
}

export function toApiLog(record: LogRecord, signer: ImageUrlSigner, now: number): ApiLog {
  return {
    id: record.id,
    created_at: new Date(record.createdAt).toISOString(),
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
