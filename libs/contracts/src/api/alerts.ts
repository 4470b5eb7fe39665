/**
 * HTTP shapes of alert rules (the webhooks service, docs/ALERTS.md): a rule watches a server's accepted
 * logs through a filter and notifies the rule's webhooks when it fires and when it resolves.
 *   threshold: fires when at least `threshold` matching logs arrived in the last `windowSeconds`;
 *   absence: fires when no matching log arrived for `windowSeconds`; resolves on the next one.
 * Texts the web app and the service must agree on live here too.
 */
import Type from 'typebox';
import type { Static } from 'typebox';

export const ALERT_KINDS = ['threshold', 'absence'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const ALERT_STATES = ['ok', 'firing'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

/** Bounds the service enforces (and the form mirrors). The window's lower bound is ALERT_MIN_WINDOW_SECONDS. */
export const ALERT_LIMITS = {
  maxNameLength: 100,
  maxFilterLength: 200,
  maxMetadataKeys: 10,
  maxWindowSeconds: 86_400,
  defaultMinWindowSeconds: 60,
  maxThreshold: 1_000_000,
  maxCooldownSeconds: 86_400,
  maxWebhooks: 10,
  /** Logs a notification and a history event carry. */
  sampleSize: 5,
  defaultHistory: 50,
  maxHistory: 200,
} as const;

const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });
const Id = Type.String({ minLength: 1, maxLength: 64 });

/** Which logs a rule counts; every field given must match (level, type, resource: equal ignoring case; search: in the message). */
export const AlertFilterSchema = Type.Object(
  {
    level: Type.Optional(Text(ALERT_LIMITS.maxFilterLength)),
    type: Type.Optional(Text(ALERT_LIMITS.maxFilterLength)),
    resource: Type.Optional(Text(ALERT_LIMITS.maxFilterLength)),
    search: Type.Optional(Text(ALERT_LIMITS.maxFilterLength)),
    /** Top-level metadata keys and the value each must have (compared as text). */
    metadata: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Type.String({ maxLength: ALERT_LIMITS.maxFilterLength }))),
  },
  { additionalProperties: false },
);
export type AlertFilter = Static<typeof AlertFilterSchema>;

const RuleFields = {
  name: Text(ALERT_LIMITS.maxNameLength),
  kind: Type.Union([Type.Literal('threshold'), Type.Literal('absence')]),
  filter: AlertFilterSchema,
  /** Required for threshold rules; ignored by absence rules. */
  threshold: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: ALERT_LIMITS.maxThreshold }), Type.Null()])),
  windowSeconds: Type.Integer({ minimum: 1, maximum: ALERT_LIMITS.maxWindowSeconds }),
  webhookIds: Type.Array(Id, { maxItems: ALERT_LIMITS.maxWebhooks }),
  /** After a resolve, the rule does not fire again for this long; default 0. */
  cooldownSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: ALERT_LIMITS.maxCooldownSeconds })),
  enabled: Type.Boolean(),
};

/** POST /alerts. */
export const CreateAlertBodySchema = Type.Object({ serverId: Id, ...RuleFields }, { additionalProperties: false });
export type CreateAlertBody = Static<typeof CreateAlertBodySchema>;

/** PUT /alerts/{id}: the same fields without serverId (the whole rule). */
export const UpdateAlertBodySchema = Type.Object(RuleFields, { additionalProperties: false });
export type UpdateAlertBody = Static<typeof UpdateAlertBodySchema>;

const IsoOrNull = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

/** A rule as owner and admin see it. */
export const ApiAlertRuleSchema = Type.Object(
  {
    id: Type.String(),
    serverId: Type.String(),
    name: Type.String(),
    kind: Type.Union([Type.Literal('threshold'), Type.Literal('absence')]),
    filter: AlertFilterSchema,
    threshold: Type.Union([Type.Integer(), Type.Null()]),
    windowSeconds: Type.Integer(),
    webhookIds: Type.Array(Type.String()),
    cooldownSeconds: Type.Integer(),
    enabled: Type.Boolean(),
    state: Type.Union([Type.Literal('ok'), Type.Literal('firing')]),
    lastFiredAt: IsoOrNull,
    lastResolvedAt: IsoOrNull,
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type ApiAlertRule = Static<typeof ApiAlertRuleSchema>;

/** GET /alerts?serverId=: the rules, the tier's maxAlertRules and how many the server has. */
export const AlertListSchema = Type.Object(
  { alerts: Type.Array(ApiAlertRuleSchema), limit: Type.Integer({ minimum: 0 }), count: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
export type AlertList = Static<typeof AlertListSchema>;

/** A log as a notification and the history carry it. */
export const AlertSampleLogSchema = Type.Object(
  {
    id: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    level: Type.String(),
    type: Type.String(),
    resource: Type.String(),
    message: Type.String(),
  },
  { additionalProperties: false },
);
export type AlertSampleLog = Static<typeof AlertSampleLogSchema>;

/** One transition of a rule. count: matching logs in the window (threshold), seconds of silence (absence firing), 0 otherwise. */
export const AlertEventSchema = Type.Object(
  {
    at: Type.String({ format: 'date-time' }),
    state: Type.Union([Type.Literal('firing'), Type.Literal('resolved')]),
    count: Type.Integer({ minimum: 0 }),
    sample: Type.Array(AlertSampleLogSchema, { maxItems: ALERT_LIMITS.sampleSize }),
  },
  { additionalProperties: false },
);
export type AlertEvent = Static<typeof AlertEventSchema>;

/** GET /alerts/{id}/history?limit=: newest first. */
export const AlertHistorySchema = Type.Object({ events: Type.Array(AlertEventSchema) }, { additionalProperties: false });
export type AlertHistory = Static<typeof AlertHistorySchema>;

/** POST /alerts/{id}/test: how each of the rule's webhooks took a test notification. */
export const AlertTestResultSchema = Type.Object(
  {
    results: Type.Array(
      Type.Object(
        { webhookId: Type.String(), ok: Type.Boolean(), statusCode: Type.Union([Type.Integer(), Type.Null()]), error: Type.Union([Type.String(), Type.Null()]) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type AlertTestResult = Static<typeof AlertTestResultSchema>;

export const ALERT_NOT_FOUND = 'Alert rule not found.';
export const ALERTS_NOT_IN_TIER = 'Your plan does not include alerts. Upgrade to add one.';
export const alertLimitReached = (limit: number) => `You have reached your plan's limit of ${limit} alert rule${limit === 1 ? '' : 's'}. Delete one or upgrade to add another.`;
export const ALERT_THRESHOLD_REQUIRED = 'A threshold rule needs a threshold of at least 1.';
export const alertWindowOutOfRange = (min: number, max: number) => `The window must be between ${min} and ${max} seconds.`;
export const ALERT_UNKNOWN_WEBHOOK = "Every webhook of a rule must be one of this server's webhooks.";
export const ALERT_NO_WEBHOOKS = 'The rule has no webhooks to notify.';
