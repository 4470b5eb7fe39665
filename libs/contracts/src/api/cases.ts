/**
 * HTTP shapes of evidence cases (the logs service, docs/CASES.md): chosen text and photo logs copied with
 * their context into a case that outlives retention, read by every member of the server and written by its
 * owner and admins. Texts the web app and the service must agree on live here.
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import { ApiLogSchema } from './logs.ts';

/** Bounds the service enforces (and the web's forms mirror). */
export const CASE_LIMITS = {
  /** Chosen logs of a case, in one POST /cases or added later (each brings its context: at most 100 × 21 lines). */
  maxLogIds: 100,
  /** Lines of context copied on EACH side of a chosen log. */
  contextLines: 10,
  /** After trimming; 1 at least. */
  maxTitleLength: 200,
  maxNotesLength: 20_000,
} as const;

export const CASE_STATUSES = ['open', 'closed'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

/** open: evidence still being gathered; closed: decided (a closed case can be reopened). */
export const CaseStatusSchema = Type.Union([Type.Literal('open'), Type.Literal('closed')]);

export const CASE_NOT_FOUND = 'Case not found.';
export const CASE_TITLE_REQUIRED = 'Give the case a title.';
export const CASE_TITLE_TOO_LONG = `A case title is at most ${CASE_LIMITS.maxTitleLength} characters.`;
export const CASE_NOTES_TOO_LONG = `Case notes are at most ${CASE_LIMITS.maxNotesLength.toLocaleString('en-US')} characters.`;
export const CASE_NO_LOGS = 'Choose at least one log for the case.';
export const CASE_TOO_MANY_LOGS = `A case is opened with at most ${CASE_LIMITS.maxLogIds} logs.`;
export const CASE_FULL_OF_LOGS = `A case holds at most ${CASE_LIMITS.maxLogIds} chosen logs: open another case for more.`;
export const CASE_CLOSED = 'This case is closed: reopen it to add logs.';
export const CASE_CHANGED_MEANWHILE = 'The case was changed meanwhile: load it again and retry.';
export const CASE_NOTHING_TO_CHANGE = 'Change the title, the notes or the status of the case.';

/** Chosen ids the server has no log for (never stored, deleted, or another server's): none is copied. */
export function caseUnknownLogs(ids: readonly string[]): string {
  const shown = ids.slice(0, 3).join(', ');
  const more = ids.length > 3 ? ` and ${ids.length - 3} more` : '';
  return ids.length === 1
    ? `The log ${shown} is not a log of this server (it may have been deleted): no case was opened.`
    : `${ids.length} of the chosen logs are not logs of this server (they may have been deleted): ${shown}${more}. No case was opened.`;
}

/** The tier's case count is reached (cases are counted whatever their status). */
export function casesFull(max: number, tierLabel: string): string {
  return `This server already has ${max} ${max === 1 ? 'case' : 'cases'}, the most its plan (${tierLabel}) keeps: delete one or upgrade to open another.`;
}

/** One case in the list (GET /cases?serverId=). */
export const CaseSummarySchema = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    status: CaseStatusSchema,
    /** The user id of the owner or admin who opened it. */
    createdBy: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    /** The chosen logs it holds (their context lines not counted). */
    itemCount: Type.Integer(),
  },
  { additionalProperties: false },
);
export type CaseSummary = Static<typeof CaseSummarySchema>;

/** GET /cases?serverId=: newest first, and how many the server's tier keeps. */
export const CaseListSchema = Type.Object(
  { cases: Type.Array(CaseSummarySchema), maxCases: Type.Integer() },
  { additionalProperties: false },
);
export type CaseList = Static<typeof CaseListSchema>;

/**
 * One chosen log with its context as copied when the case was opened, oldest first on each side. Photo logs'
 * image_path and thumb_path are signed URLs of the case's OWN copies (valid 10 to 20 minutes, like the lists').
 */
export const CaseItemSchema = Type.Object(
  { log: ApiLogSchema, before: Type.Array(ApiLogSchema), after: Type.Array(ApiLogSchema) },
  { additionalProperties: false },
);
export type CaseItem = Static<typeof CaseItemSchema>;

/** GET /cases/{id}, and the answer of POST /cases and PATCH /cases/{id}. */
export const CaseSchema = Type.Object(
  {
    id: Type.String(),
    serverId: Type.String(),
    title: Type.String(),
    notes: Type.String(),
    status: CaseStatusSchema,
    createdBy: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    itemCount: Type.Integer(),
    /** Bytes of the photos the case holds (its own copies): counted in the server's storage (GET /server/usage). */
    bytes: Type.Integer(),
    /** In the order the logs happened. */
    items: Type.Array(CaseItemSchema),
  },
  { additionalProperties: false },
);
export type Case = Static<typeof CaseSchema>;

const LogId = Type.String({ minLength: 1, maxLength: 64 });

/**
 * POST /cases. The title is checked by the service after trimming (a blank one reads a sentence about a
 * case's title); logIds are de-duplicated.
 */
export const CreateCaseBodySchema = Type.Object(
  {
    serverId: Type.String({ minLength: 1, maxLength: 64 }),
    title: Type.String({ maxLength: 1000 }),
    notes: Type.Optional(Type.String({ maxLength: 100_000 })),
    logIds: Type.Array(LogId, { maxItems: 1000 }),
  },
  { additionalProperties: false },
);
export type CreateCaseBody = Static<typeof CreateCaseBodySchema>;

/** POST /cases/{id}/logs: more chosen logs, copied with their context, into an open case. */
export const AddCaseLogsBodySchema = Type.Object({ logIds: Type.Array(LogId, { maxItems: 1000 }) }, { additionalProperties: false });
export type AddCaseLogsBody = Static<typeof AddCaseLogsBodySchema>;

/** PATCH /cases/{id}: any of the three; at least one. */
export const UpdateCaseBodySchema = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: 1000 })),
    notes: Type.Optional(Type.String({ maxLength: 100_000 })),
    status: Type.Optional(CaseStatusSchema),
  },
  { additionalProperties: false },
);
export type UpdateCaseBody = Static<typeof UpdateCaseBodySchema>;
