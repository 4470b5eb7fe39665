/**
 * HTTP answer shapes of the logs service (see common.ts for how they are used): the log lists, photo
 * logs, dashboard statistics, quota usage, level colours and cleanup. Every field listed here is sent on
 * every answer (no optional fields): clients read them as they are, without fallbacks.
 */
import Type from 'typebox';
import type { Static } from 'typebox';

/**
 * The levels that have a colour: the five log levels ingestion accepts (LOG_LEVELS in events/logs.ts,
 * repeated because this file imports typebox only; a logs service test keeps the two lists equal).
 */
export const COLOR_LEVELS = ['info', 'warn', 'error', 'fatal', 'debug'] as const;
export type ColorLevel = (typeof COLOR_LEVELS)[number];

const ColorLevelSchema = Type.Union([
  Type.Literal('info'),
  Type.Literal('warn'),
  Type.Literal('error'),
  Type.Literal('fatal'),
  Type.Literal('debug'),
]);

/** A log as every list answers it (docs/spec/part-1.txt section 3): snake_case names, ISO time, signed image paths for photo logs. */
export const ApiLogSchema = Type.Object(
  {
    /** UUIDv7 assigned at ingestion. */
    id: Type.String(),
    /**
     * ISO 8601 UTC time the log happened: the time the game server sent with it when ingestion took it (within a
     * day before and 5 minutes after its arrival), else its arrival. Lists are ordered and filtered by it.
     */
    created_at: Type.String({ format: 'date-time' }),
    /** ISO 8601 UTC time Skald received the log (retention counts from it); equals created_at when the log carried no time of its own. */
    received_at: Type.String({ format: 'date-time' }),
    /** As stored: one of the five log levels (ingestion refuses others), lower case. */
    level: Type.String(),
    type: Type.String(),
    resource: Type.String(),
    message: Type.String(),
    metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    log_type: Type.Union([Type.Literal('text'), Type.Literal('photo')]),
    /** Relative signed URL of the photo (valid 10 to 20 minutes); null for text logs. */
    image_path: Type.Union([Type.String(), Type.Null()]),
    /** Relative signed URL of the thumbnail; null for text logs. */
    thumb_path: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type ApiLog = Static<typeof ApiLogSchema>;

/**
 * GET /logs/my and /logs/my/combined: newest first. The number of logs matching the filters (all pages)
 * is in the X-Total-Count header, exact up to TOTAL_COUNT_CAP; past it X-Total-Count is the cap and
 * X-Total-Capped is `true` (shown as "100,000+"). X-Total-Capped is sent on every list answer.
 */
export const ApiLogListSchema = Type.Array(ApiLogSchema);

/** Totals are counted exactly up to this many matching logs. */
export const TOTAL_COUNT_CAP = 100_000;
/** `true` when X-Total-Count stopped at TOTAL_COUNT_CAP, else `false`. */
export const TOTAL_CAPPED_HEADER = 'X-Total-Capped';
export type ApiLogList = Static<typeof ApiLogListSchema>;

/**
 * GET /photologs/my: one page of photo logs, the tier's photo-log limit, the number matching the filters and
 * the number stored (the screen's 'n / max photologs stored.' is `stored`, whatever the filters).
 */
export const PhotoLogPageSchema = Type.Object(
  {
    photologs: ApiLogListSchema,
    maxPhotoLogs: Type.Integer(),
    /** Same number as the X-Total-Count header. */
    total: Type.Integer(),
    /** Same as the X-Total-Capped header: `total` stopped at TOTAL_COUNT_CAP and more match. */
    totalCapped: Type.Boolean(),
    /** Every photo log the server has stored, filters ignored (from the store's rollups, not a count of rows). */
    stored: Type.Integer(),
  },
  { additionalProperties: false },
);
export type PhotoLogPage = Static<typeof PhotoLogPageSchema>;

/** Text and photo logs counted apart, under a name (a type, a level or a resource). */
export const NamedCountSchema = Type.Object(
  { name: Type.String(), text: Type.Integer(), photo: Type.Integer() },
  { additionalProperties: false },
);
export type NamedCount = Static<typeof NamedCountSchema>;

/** What a breakdown list leaves out: how many names, and their logs counted apart (all zero when none). */
export const OtherCountSchema = Type.Object(
  { names: Type.Integer(), text: Type.Integer(), photo: Type.Integer() },
  { additionalProperties: false },
);
export type OtherCount = Static<typeof OtherCountSchema>;

/** Text and photo logs of one UTC day (YYYY-MM-DD). */
export const DayCountSchema = Type.Object(
  { date: Type.String({ format: 'date' }), text: Type.Integer(), photo: Type.Integer() },
  { additionalProperties: false },
);
export type DayCount = Static<typeof DayCountSchema>;

/** GET /logs/stats (docs/spec/part-1.txt sections 2 "Dashboard" and 9). Windows: the last 7 UTC days including today versus the 7 before. */
export const DashboardStatsSchema = Type.Object(
  {
    totals: Type.Object({ all: Type.Integer(), text: Type.Integer(), photo: Type.Integer() }, { additionalProperties: false }),
    /** Oldest first, always 7 entries; days without logs are zeros. */
    last7Days: Type.Array(DayCountSchema),
    currentWeekTotal: Type.Integer(),
    previousWeekTotal: Type.Integer(),
    /** currentWeekTotal / 7, rounded. */
    averagePerDay: Type.Integer(),
    /** Signed percentage against the previous 7 days: 100 when those were 0 and these are not, 0 when both are 0. */
    trend: Type.Integer(),
    /**
     * Each the top 10 names by total descending, then name; names without logs are left out. The names past
     * the top 10 are summed in the matching `…Other`, so the rows plus the other bucket add up to `totals`.
     */
    perType: Type.Array(NamedCountSchema),
    perLevel: Type.Array(NamedCountSchema),
    perResource: Type.Array(NamedCountSchema),
    perTypeOther: OtherCountSchema,
    perLevelOther: OtherCountSchema,
    perResourceOther: OtherCountSchema,
    /** The 8 newest photo logs (never null; empty without photos). */
    recentPhotos: ApiLogListSchema,
  },
  { additionalProperties: false },
);
export type DashboardStats = Static<typeof DashboardStatsSchema>;

/** GET /server/usage/{id}: the current hour's quota use and the server's tier limits. */
export const ServerUsageSchema = Type.Object(
  {
    used: Type.Integer(),
    limit: Type.Integer(),
    /** ISO time at which the hourly window resets. */
    reset: Type.String({ format: 'date-time' }),
    tierLabel: Type.String(),
    retentionDays: Type.Integer(),
    maxBackups: Type.Integer(),
    maxWebhooks: Type.Integer(),
    maxPhotoLogs: Type.Integer(),
    /** Alert rules the tier allows (0: none; the web app locks its Alerts entry). */
    maxAlertRules: Type.Integer(),
    /** Evidence cases the tier keeps (docs/CASES.md). */
    maxCases: Type.Integer(),
    /** Bytes the server's cases hold (their own copies of photos): the evidence counts in the server's storage. */
    caseBytes: Type.Integer(),
  },
  { additionalProperties: false },
);
export type ServerUsage = Static<typeof ServerUsageSchema>;

/** CSS hex colours only: the value ends up in a style attribute in the web app. */
const HexColorSchema = Type.String({ pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$', maxLength: 9 });

export const LevelColorSchema = Type.Object({ bg_color: HexColorSchema, text_color: HexColorSchema }, { additionalProperties: false });
export type LevelColor = Static<typeof LevelColorSchema>;

/**
 * GET and PUT /settings/colors: the bare map, every level present (the server fills in its defaults for
 * levels never set, so clients need no defaults of their own).
 */
export const LevelColorsSchema = Type.Object(
  { info: LevelColorSchema, warn: LevelColorSchema, error: LevelColorSchema, fatal: LevelColorSchema, debug: LevelColorSchema },
  { additionalProperties: false },
);
export type LevelColors = Static<typeof LevelColorsSchema>;

/** PUT /settings/colors body: any non-empty subset of the levels; levels left out keep their colours. */
export const LevelColorsUpdateSchema = Type.Object(
  {
    info: Type.Optional(LevelColorSchema),
    warn: Type.Optional(LevelColorSchema),
    error: Type.Optional(LevelColorSchema),
    fatal: Type.Optional(LevelColorSchema),
    debug: Type.Optional(LevelColorSchema),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type LevelColorsUpdate = Static<typeof LevelColorsUpdateSchema>;

/** GET /settings/levels: the levels whose colours can be set, in COLOR_LEVELS order (the key is `types`). */
export const LevelListSchema = Type.Object({ types: Type.Array(ColorLevelSchema) }, { additionalProperties: false });
export type LevelList = Static<typeof LevelListSchema>;

/** DELETE /logs/cleanup: how many logs (text and photo) were deleted. */
export const CleanupAnswerSchema = Type.Object({ deletedCount: Type.Integer() }, { additionalProperties: false });
export type CleanupAnswer = Static<typeof CleanupAnswerSchema>;

/**
 * GET /logs/tail: server-sent events. Each frame is `event: <name>` and `data: <JSON>`:
 *   - `log`: an ApiLog just accepted and stored that matches the filters. Its `id:` line (the log id, a
 *     UUIDv7) is sent only when it sorts after every id sent before, so the Last-Event-ID a client resumes
 *     with never makes the server send a log twice;
 *   - `ready`: the catch-up after Last-Event-ID is done (`replayed` logs sent from the store) and the
 *     stream is live;
 *   - `skipped`: more logs were missed than a resume replays; the oldest `count` were not sent (the list
 *     screen, not the tail, is the place to read them);
 *   - `end`: the server closes the stream (shutdown, session or access gone, client too slow): the reason,
 *     and whether reconnecting (with Last-Event-ID) is expected to work.
 * A comment line (`: ping`) is sent every 10 seconds so proxies and clients see the stream alive.
 */
export const LOG_TAIL_EVENTS = ['log', 'ready', 'skipped', 'end'] as const;
export type LogTailEventName = (typeof LOG_TAIL_EVENTS)[number];

export const LogTailReadySchema = Type.Object({ replayed: Type.Integer() }, { additionalProperties: false });
export type LogTailReady = Static<typeof LogTailReadySchema>;

export const LogTailSkippedSchema = Type.Object({ count: Type.Integer(), message: Type.String() }, { additionalProperties: false });
export type LogTailSkipped = Static<typeof LogTailSkippedSchema>;

export const LogTailEndSchema = Type.Object(
  { error: Type.String(), message: Type.String(), reconnect: Type.Boolean() },
  { additionalProperties: false },
);
export type LogTailEnd = Static<typeof LogTailEndSchema>;

/** GET /logs/{id}/context: lines asked for on each side when `before`/`after` are absent, and the most allowed. */
export const DEFAULT_CONTEXT_LINES = 20;
export const MAX_CONTEXT_LINES = 100;

/**
 * GET /logs/{id}/context: the log and the server's text and photo logs just before and after it, ordered by
 * the log time (created_at), ties by id. Both lists are in reading order, oldest first: `before` ends with
 * the log just before `log`, `after` starts with the one just after it. Fewer than asked near either end.
 */
export const LogContextSchema = Type.Object(
  {
    before: ApiLogListSchema,
    log: ApiLogSchema,
    after: ApiLogListSchema,
  },
  { additionalProperties: false },
);
export type LogContext = Static<typeof LogContextSchema>;
