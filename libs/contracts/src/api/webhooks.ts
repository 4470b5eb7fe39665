/**
 * HTTP shapes of the webhooks service (docs/spec/part-1.txt sections 3, 5, 7): the webhook list with each
 * webhook's delivery state and dead letters, the filter options, and the create / edit bodies. Every
 * field listed is sent on every answer (no optional fields). Texts the web app and the service must
 * agree on (the spec's telegram message) live here too.
 */
import Type from 'typebox';
import type { Static } from 'typebox';

/** docs/spec/part-1.txt section 5, in the spec's order (the add form's platform options). */
export const WEBHOOK_PLATFORMS = ['discord', 'slack', 'telegram', 'teams', 'mattermost', 'rocketchat', 'googlechat', 'pagerduty', 'generic'] as const;
export type WebhookPlatform = (typeof WEBHOOK_PLATFORMS)[number];

export function isWebhookPlatform(value: unknown): value is WebhookPlatform {
  return typeof value === 'string' && (WEBHOOK_PLATFORMS as readonly string[]).includes(value);
}

/** docs/spec/part-1.txt section 5: add and edit refuse a telegram webhook without a chat_id with this text. */
export const TELEGRAM_CHAT_ID_REQUIRED = 'Telegram requires a chat_id.';
/** PagerDuty's routing (integration) key travels in chat_id. */
export const PAGERDUTY_ROUTING_KEY_REQUIRED = 'PagerDuty requires the routing key in chat_id.';

/** Bounds the service enforces (and the form mirrors). */
export const WEBHOOK_LIMITS = { maxUrlLength: 2048, maxChatIdLength: 256, maxFilterLength: 200 } as const;

export const WebhookPlatformSchema = Type.Union([
  Type.Literal('discord'),
  Type.Literal('slack'),
  Type.Literal('telegram'),
  Type.Literal('teams'),
  Type.Literal('mattermost'),
  Type.Literal('rocketchat'),
  Type.Literal('googlechat'),
  Type.Literal('pagerduty'),
  Type.Literal('generic'),
]);

const NullableString = (max: number) => Type.Union([Type.String({ maxLength: max }), Type.Null()]);

/** One failed delivery kept for replay (docs/spec/part-1.txt section 3). */
export const ApiDeadLetterSchema = Type.Object(
  {
    id: Type.String(),
    /** Why the last attempt failed (status code or network error); never the URL. */
    error_message: Type.String(),
    /** The JSON body that was sent, as text (without the destination's credentials: Telegram chat_id, PagerDuty routing key). */
    payload: Type.String(),
    /** ISO 8601. */
    failed_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type ApiDeadLetter = Static<typeof ApiDeadLetterSchema>;

/** A webhook as owner and admin see it (docs/spec/part-1.txt section 3 plus `enabled`, `disabled_reason`, `created_at`). */
export const ApiWebhookSchema = Type.Object(
  {
    id: Type.String(),
    /** The full URL (a credential): only owner and admin of the server ever receive it. */
    url: Type.String(),
    platform: WebhookPlatformSchema,
    /** Telegram chat id or PagerDuty routing key; null for the other platforms. */
    chat_id: Type.Union([Type.String(), Type.Null()]),
    /** Filters; null matches everything (case-insensitive otherwise). */
    event_type: Type.Union([Type.String(), Type.Null()]),
    log_level: Type.Union([Type.String(), Type.Null()]),
    resource: Type.Union([Type.String(), Type.Null()]),
    /** False once a 410 answer disabled it; editing re-enables. */
    enabled: Type.Boolean(),
    disabled_reason: Type.Union([Type.String(), Type.Null()]),
    /** ISO 8601 time of the last delivery attempt; null before the first. */
    last_attempt_time: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    last_success: Type.Union([Type.Boolean(), Type.Null()]),
    /** HTTP status of the last attempt; null when no answer came (timeout, refused connection). */
    last_status_code: Type.Union([Type.Integer(), Type.Null()]),
    /** Failed attempts since the last success. */
    failed_attempts: Type.Integer({ minimum: 0 }),
    dead_letters_count: Type.Integer({ minimum: 0 }),
    /** Newest first, at most WEBHOOK_DEAD_LETTERS_SHOWN (dead_letters_count counts all). */
    dead_letters: Type.Array(ApiDeadLetterSchema),
    created_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type ApiWebhook = Static<typeof ApiWebhookSchema>;

export const WEBHOOK_DEAD_LETTERS_SHOWN = 50;

/** GET /webhooks?serverId=: the server's webhooks, its tier's maxWebhooks and how many it has. */
export const WebhookListSchema = Type.Object(
  { webhooks: Type.Array(ApiWebhookSchema), limit: Type.Integer({ minimum: 0 }), count: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
export type WebhookList = Static<typeof WebhookListSchema>;

/** GET /webhooks/options?serverId=: log types and resources seen in the server's logs, and the five levels. */
export const WebhookOptionsSchema = Type.Object(
  { eventTypes: Type.Array(Type.String()), logLevels: Type.Array(Type.String()), resources: Type.Array(Type.String()) },
  { additionalProperties: false },
);
export type WebhookOptions = Static<typeof WebhookOptionsSchema>;

const WebhookFields = {
  url: Type.String({ minLength: 1, maxLength: WEBHOOK_LIMITS.maxUrlLength }),
  platform: WebhookPlatformSchema,
  chat_id: Type.Optional(NullableString(WEBHOOK_LIMITS.maxChatIdLength)),
  event_type: Type.Optional(NullableString(WEBHOOK_LIMITS.maxFilterLength)),
  log_level: Type.Optional(NullableString(WEBHOOK_LIMITS.maxFilterLength)),
  resource: Type.Optional(NullableString(WEBHOOK_LIMITS.maxFilterLength)),
};

/** POST /webhooks (docs/spec/part-1.txt section 7). Empty filters are sent as null (= all); an empty string counts as null too. */
export const CreateWebhookBodySchema = Type.Object(
  { serverId: Type.String({ minLength: 1, maxLength: 64 }), ...WebhookFields },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBodySchema>;

/** PUT /webhooks/{id} (docs/spec/part-1.txt section 7): the same fields without serverId. */
export const UpdateWebhookBodySchema = Type.Object(WebhookFields, { additionalProperties: false });
export type UpdateWebhookBody = Static<typeof UpdateWebhookBodySchema>;

/**
 * Answer of POST /webhooks and PUT /webhooks/{id}: the webhook, and for a generic webhook the signing
 * secret (`whsec_…`, Standard Webhooks) when it was created by this call: shown once, null otherwise.
 */
export const SavedWebhookSchema = Type.Object(
  { webhook: ApiWebhookSchema, secret: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);
export type SavedWebhook = Static<typeof SavedWebhookSchema>;

/** Answer of POST /webhooks/{id}/test and /replay/{deadLetterId} when the receiver accepted it (2xx). */
export const DeliveryResultSchema = Type.Object(
  { message: Type.String(), status_code: Type.Integer() },
  { additionalProperties: false },
);
export type DeliveryResult = Static<typeof DeliveryResultSchema>;

/** Answer of the dead-letter clearing calls. */
export const DeadLettersClearedSchema = Type.Object({ message: Type.String(), removed: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });
export type DeadLettersCleared = Static<typeof DeadLettersClearedSchema>;
