/**
 * HTTP answer shapes of the ingestion service (see common.ts for how they are used): POST /logs and
 * POST /photologs, called by game servers with their API key.
 */
import Type from 'typebox';
import type { Static } from 'typebox';

/** 201 for one log (a JSON object) and for a photo log: the generated UUIDv7. */
export const LogAcceptedSchema = Type.Object({ id: Type.String() }, { additionalProperties: false });
export type LogAccepted = Static<typeof LogAcceptedSchema>;

/** 201 for a batch (a JSON array): the generated ids, in the order the logs were sent. */
export const LogsAcceptedSchema = Type.Object({ ids: Type.Array(Type.String()) }, { additionalProperties: false });
export type LogsAccepted = Static<typeof LogsAcceptedSchema>;

/** 201 of POST /logs: `{ id }` when the body was one log object, `{ ids }` when it was an array. */
export const PostLogsAnswerSchema = Type.Union([LogAcceptedSchema, LogsAcceptedSchema]);
export type PostLogsAnswer = Static<typeof PostLogsAnswerSchema>;

/** The tier's hourly quota as a 429 reports it (the window is the clock hour, shared by every instance). */
export const IngestionUsageSchema = Type.Object(
  {
    used: Type.Integer(),
    limit: Type.Integer(),
    remaining: Type.Integer(),
    /** ISO time at which the window resets. */
    reset: Type.String(),
    tierLabel: Type.String(),
  },
  { additionalProperties: false },
);
export type IngestionUsage = Static<typeof IngestionUsageSchema>;

/**
 * Every refusal of the ingestion API: the common `{ error, message }`, plus `field` naming the refused
 * input on a 400 (`message`, `[3].level`, `photo`), `usage` on a 429, and `retryAfter` on a 429 and a
 * 503: the `Retry-After` header's seconds again, for clients that cannot read headers (FXServer's
 * PerformHttpRequest gives a script only the body of an answer of 400 or more).
 */
export const IngestionErrorSchema = Type.Object(
  {
    error: Type.String(),
    message: Type.String(),
    field: Type.Optional(Type.String()),
    usage: Type.Optional(IngestionUsageSchema),
    /** Seconds to wait before sending again (429, 503), the same value as the Retry-After header. */
    retryAfter: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
export type IngestionError = Static<typeof IngestionErrorSchema>;
