/**
 * `logs.batch-accepted` v1: a batch of logs the ingestion service has accepted for one server.
 *
 * Published on TOPICS.logsIngested, keyed by serverId, ONLY after validation and quota succeeded;
 * the HTTP 2xx is sent only once the bus has durably accepted it. Log ids are generated at
 * ingestion (UUIDv7, time-ordered), so a redelivered message is stored once (LogStore inserts
 * are idempotent on id). One message per HTTP request: a batch of up to 1000 logs, or one photo log.
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { TOPICS } from '../topics.ts';
import { AnyObject } from './any-object.ts';
import { ClosedObject } from './closed-object.ts';

export const LOG_LEVELS = ['info', 'warn', 'error', 'fatal', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Upper bounds shared by ingestion (rejects above them) and consumers (dead-letter above them). */
export const LOG_LIMITS = {
  maxBatch: 1000,
  maxMessageLength: 10_000,
  maxFieldLength: 200,
  /** Serialized metadata JSON, in characters. */
  maxMetadataLength: 16_384,
} as const;

export { CLIENT_TIME_WINDOW } from '../constants.ts';

/** Closed (no other properties) without an array per log to check it: closed-object.ts. */
export const AcceptedLogSchema = ClosedObject({
  /** UUIDv7 assigned at ingestion. */
  id: Type.String({ minLength: 1, maxLength: 64 }),
  /**
   * Epoch ms the log happened: the time the client sent with it when that lies within ingestion's window
   * (CLIENT_TIME_WINDOW), else its arrival. Lists order, page and filter by it.
   */
  createdAt: Type.Integer({ minimum: 0 }),
  /**
   * Epoch ms ingestion received the log, present only when it differs from createdAt (the client's own time
   * was taken). Absent: received at createdAt, as every log of an event published before this field existed.
   * Retention counts from it, so a backdated log is kept as long as any other.
   */
  receivedAt: Type.Optional(Type.Integer({ minimum: 0 })),
  level: Type.Union([
    Type.Literal('info'),
    Type.Literal('warn'),
    Type.Literal('error'),
    Type.Literal('fatal'),
    Type.Literal('debug'),
  ]),
  type: Type.String({ maxLength: LOG_LIMITS.maxFieldLength }),
  resource: Type.String({ maxLength: LOG_LIMITS.maxFieldLength }),
  message: Type.String({ maxLength: LOG_LIMITS.maxMessageLength }),
  metadata: Type.Union([AnyObject(), Type.Null()]),
  logType: Type.Union([Type.Literal('text'), Type.Literal('photo')]),
  /** Object-store keys (photo logs only), e.g. photos/<serverId>/<id>.webp and thumbs/<serverId>/<id>.webp. */
  imageKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  thumbKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
});

export const LogsBatchAcceptedSchema = Type.Object(
  {
    serverId: Type.String({ minLength: 1, maxLength: 64 }),
    logs: Type.Array(AcceptedLogSchema, { minItems: 1, maxItems: LOG_LIMITS.maxBatch }),
  },
  { additionalProperties: false },
);

export type AcceptedLog = Static<typeof AcceptedLogSchema>;
export type LogsBatchAccepted = Static<typeof LogsBatchAcceptedSchema>;

/** Event descriptor: name and version travel in the `event-type` header as `logs.batch-accepted.v1`. */
export const LogsBatchAcceptedEvent = {
  name: 'logs.batch-accepted',
  version: 1,
  topic: TOPICS.logsIngested,
  schema: LogsBatchAcceptedSchema,
} as const;

export const LOGS_BATCH_ACCEPTED_TYPE = `${LogsBatchAcceptedEvent.name}.v${LogsBatchAcceptedEvent.version}`;

const validator = Compile(LogsBatchAcceptedSchema);

/** Runtime check for consumers: anything failing it belongs on the dead-letter topic. */
export function isLogsBatchAccepted(value: unknown): value is LogsBatchAccepted {
  return validator.Check(value);
}

/** First validation problem as text, for the dead-letter reason. */
export function explainLogsBatchAccepted(value: unknown): string | null {
  if (validator.Check(value)) return null;
  const first = validator.Errors(value)[0];
  return first ? `${first.instancePath || '/'} ${first.message}` : 'invalid payload';
}
