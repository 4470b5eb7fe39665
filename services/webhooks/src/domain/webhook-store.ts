/**
 * The webhooks service's two collections: `webhooks` (configuration and delivery state) and
 * `dead_letters` (failed deliveries kept for replay), opened in one place with their indexes.
 *
 * A webhook's URL is a credential (a Discord or Slack URL lets anyone post to the channel; a Telegram
 * URL holds the bot token), and its chat_id may be one too (PagerDuty's routing key): both are sealed
 * with the service kit's secret box, as is a generic webhook's signing secret. The purpose string binds
 * each ciphertext to its webhook and field, so a sealed value copied to another document does not open.
 * Dead letters hold the body as sent WITHOUT those destination fields (see platforms/index.ts), so they
 * are stored as they are.
 */
import { randomUUID } from 'node:crypto';
import type { ApiDeadLetter, ApiWebhook, WebhookPlatform } from '@skald/contracts';
import { WEBHOOK_DEAD_LETTERS_SHOWN } from '@skald/contracts';
import type { Collection, DocumentStore } from '@skald/ports';
import type { SecretBox } from '@skald/service-kit';

export interface WebhookFilters {
  readonly eventType: string | null;
  readonly logLevel: string | null;
  readonly resource: string | null;
}

interface WebhookDoc {
  readonly _id: string;
  readonly serverId: string;
  readonly platform: WebhookPlatform;
  readonly urlSealed: string;
  readonly chatIdSealed: string | null;
  readonly secretSealed: string | null;
  readonly eventType: string | null;
  readonly logLevel: string | null;
  readonly resource: string | null;
  readonly enabled: boolean;
  readonly disabledReason: string | null;
  readonly lastAttemptAt: number | null;
  readonly lastSuccess: boolean | null;
  readonly lastStatusCode: number | null;
  readonly failedAttempts: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

interface DeadLetterDoc {
  readonly _id: string;
  readonly webhookId: string;
  readonly serverId: string;
  /** The delivery id (webhook-id header, PagerDuty dedup_key): a replay sends it again so receivers can dedupe. */
  readonly deliveryId: string;
  readonly errorMessage: string;
  readonly payload: string;
  readonly failedAt: number;
}

/** A webhook with its secrets opened: what delivery needs. Never logged, never answered as a whole. */
export interface Webhook extends WebhookFilters {
  readonly id: string;
  readonly serverId: string;
  readonly platform: WebhookPlatform;
  readonly url: string;
  readonly chatId: string | null;
  /** Generic webhooks only: the Standard Webhooks signing secret (`whsec_…`). */
  readonly secret: string | null;
  readonly enabled: boolean;
  readonly createdAt: number;
}

export interface WebhookMatcher extends WebhookFilters {
  readonly id: string;
  readonly platform: WebhookPlatform;
  readonly enabled: boolean;
}

export interface WebhookSettings extends WebhookFilters {
  readonly platform: WebhookPlatform;
  readonly url: string;
  readonly chatId: string | null;
}

export interface DeadLetter {
  readonly id: string;
  readonly webhookId: string;
  readonly deliveryId: string;
  readonly payload: string;
}

/** How one attempt ended, recorded on the webhook. */
export type AttemptRecord =
  | { readonly ok: true; readonly statusCode: number; readonly at: number }
  | { readonly ok: false; readonly statusCode: number | null; readonly at: number; readonly disable?: string };

export interface WebhookStore {
  create(serverId: string, settings: WebhookSettings, secret: string | null, now: number): Promise<Webhook>;
  /** Null when the webhook is not on that server. Editing re-enables a disabled webhook. */
  update(serverId: string, id: string, settings: WebhookSettings, secret: string | null, now: number): Promise<Webhook | null>;
  /** Removes the webhook and its dead letters; false when it is not on that server. */
  remove(serverId: string, id: string): Promise<boolean>;
  get(serverId: string, id: string): Promise<Webhook | null>;
  /** The server a webhook belongs to, or null (access checks of the /webhooks/{id} routes). */
  serverOf(id: string): Promise<string | null>;
  /**
   * Any server's webhook by id (delivery jobs carry only ids). Kept for up to BY_ID_CACHE_MS per process, so
   * a burst of deliveries does not read and open it for each message; this process's own changes drop it at
   * once, another replica's are seen within that time.
   */
  byId(id: string): Promise<Webhook | null>;
  /** What matching needs of the server's webhooks, oldest first, without opening any secret. */
  filtersOf(serverId: string): Promise<WebhookMatcher[]>;
  count(serverId: string): Promise<number>;
  /** The answers of GET /webhooks, oldest first, each with its newest dead letters. */
  views(serverId: string): Promise<ApiWebhook[]>;
  view(serverId: string, id: string): Promise<ApiWebhook | null>;
  recordAttempt(id: string, attempt: AttemptRecord): Promise<void>;
  addDeadLetter(webhook: Pick<Webhook, 'id' | 'serverId'>, deliveryId: string, payload: string, errorMessage: string, now: number): Promise<string>;
  deadLetter(serverId: string, webhookId: string, deadLetterId: string): Promise<DeadLetter | null>;
  updateDeadLetter(id: string, errorMessage: string, now: number): Promise<void>;
  removeDeadLetter(serverId: string, webhookId: string, deadLetterId: string): Promise<boolean>;
  clearDeadLetters(serverId: string, webhookId: string): Promise<number>;
}

const iso = (ms: number) => new Date(ms).toISOString();

export const BY_ID_CACHE_MS = 1_000;

export async function createWebhookStore(docs: DocumentStore, box: SecretBox): Promise<WebhookStore> {
  const webhooks: Collection<WebhookDoc> = await docs.collection<WebhookDoc>('webhooks', [{ fields: ['serverId'] }]);
  const deadLetters: Collection<DeadLetterDoc> = await docs.collection<DeadLetterDoc>('dead_letters', [{ fields: ['webhookId'] }, { fields: ['serverId'] }]);

  const purpose = (id: string, field: 'url' | 'chat_id' | 'secret') => `webhook:${id}:${field}`;
  const seal = (id: string, field: 'url' | 'chat_id' | 'secret', value: string | null) => (value === null ? null : box.seal(value, purpose(id, field)));
  const open = (id: string, field: 'url' | 'chat_id' | 'secret', value: string | null) => (value === null ? null : box.open(value, purpose(id, field)));

  const toWebhook = (doc: WebhookDoc): Webhook => ({
    id: doc._id,
    serverId: doc.serverId,
    platform: doc.platform,
    url: open(doc._id, 'url', doc.urlSealed)!,
    chatId: open(doc._id, 'chat_id', doc.chatIdSealed),
    secret: open(doc._id, 'secret', doc.secretSealed),
    eventType: doc.eventType,
    logLevel: doc.logLevel,
    resource: doc.resource,
    enabled: doc.enabled,
    createdAt: doc.createdAt,
  });

  const recent = new Map<string, { readonly webhook: Webhook; readonly at: number }>();
  const forget = (id: string) => void recent.delete(id);

  const toDeadLetterView = (doc: DeadLetterDoc): ApiDeadLetter => ({ id: doc._id, error_message: doc.errorMessage, payload: doc.payload, failed_at: iso(doc.failedAt) });

  async function toView(doc: WebhookDoc): Promise<ApiWebhook> {
    const count = await deadLetters.count({ webhookId: doc._id });
    const newest = count === 0 ? [] : await deadLetters.find({ webhookId: doc._id }, { sort: { failedAt: -1 }, limit: WEBHOOK_DEAD_LETTERS_SHOWN });
    return {
      id: doc._id,
      url: open(doc._id, 'url', doc.urlSealed)!,
      platform: doc.platform,
      chat_id: open(doc._id, 'chat_id', doc.chatIdSealed),
      event_type: doc.eventType,
      log_level: doc.logLevel,
      resource: doc.resource,
      enabled: doc.enabled,
      disabled_reason: doc.disabledReason,
      last_attempt_time: doc.lastAttemptAt === null ? null : iso(doc.lastAttemptAt),
      last_success: doc.lastSuccess,
      last_status_code: doc.lastStatusCode,
      failed_attempts: doc.failedAttempts,
      dead_letters_count: count,
      dead_letters: newest.map(toDeadLetterView),
      created_at: iso(doc.createdAt),
    };
  }

  const settingsFields = (id: string, settings: WebhookSettings) => ({
    platform: settings.platform,
    urlSealed: seal(id, 'url', settings.url)!,
    chatIdSealed: seal(id, 'chat_id', settings.chatId),
    eventType: settings.eventType,
    logLevel: settings.logLevel,
    resource: settings.resource,
  });

  return {
    async create(serverId, settings, secret, now) {
      const id = randomUUID();
      const doc: WebhookDoc = {
        _id: id,
        serverId,
        ...settingsFields(id, settings),
        secretSealed: seal(id, 'secret', secret),
        enabled: true,
        disabledReason: null,
        lastAttemptAt: null,
        lastSuccess: null,
        lastStatusCode: null,
        failedAttempts: 0,
        createdAt: now,
        updatedAt: now,
      };
      await webhooks.insertOne(doc);
      return toWebhook(doc);
    },
    async update(serverId, id, settings, secret, now) {
      forget(id);
      const doc = await webhooks.findOneAndUpdate(
        { _id: id, serverId },
        { $set: { ...settingsFields(id, settings), secretSealed: seal(id, 'secret', secret), enabled: true, disabledReason: null, updatedAt: now } },
      );
      return doc === null ? null : toWebhook(doc);
    },
    async remove(serverId, id) {
      forget(id);
      const removed = await webhooks.deleteOne({ _id: id, serverId });
      if (removed === 0) return false;
      await deadLetters.deleteMany({ webhookId: id });
      return true;
    },
    async get(serverId, id) {
      const doc = await webhooks.findOne({ _id: id, serverId });
      return doc === null ? null : toWebhook(doc);
    },
    async serverOf(id) {
      return (await webhooks.findOne({ _id: id }))?.serverId ?? null;
    },
    async byId(id) {
      const cached = recent.get(id);
      if (cached && Date.now() - cached.at < BY_ID_CACHE_MS) return cached.webhook;
      const doc = await webhooks.findOne({ _id: id });
      if (doc === null) {
        forget(id);
        return null;
      }
      const webhook = toWebhook(doc);
      // Bounded: a process serving very many webhooks starts over rather than growing.
      if (recent.size >= 10_000) recent.clear();
      recent.set(id, { webhook, at: Date.now() });
      return webhook;
    },
    async filtersOf(serverId) {
      return (await webhooks.find({ serverId }, { sort: { createdAt: 1, _id: 1 } })).map((doc) => ({
        id: doc._id,
        platform: doc.platform,
        enabled: doc.enabled,
        eventType: doc.eventType,
        logLevel: doc.logLevel,
        resource: doc.resource,
      }));
    },
    count: (serverId) => webhooks.count({ serverId }),
    async views(serverId) {
      return Promise.all((await webhooks.find({ serverId }, { sort: { createdAt: 1, _id: 1 } })).map(toView));
    },
    async view(serverId, id) {
      const doc = await webhooks.findOne({ _id: id, serverId });
      return doc === null ? null : toView(doc);
    },
    async recordAttempt(id, attempt) {
      if (!attempt.ok && attempt.disable !== undefined) forget(id);
      if (attempt.ok) {
        await webhooks.updateOne({ _id: id }, { $set: { lastAttemptAt: attempt.at, lastSuccess: true, lastStatusCode: attempt.statusCode, failedAttempts: 0 } });
        return;
      }
      await webhooks.updateOne(
        { _id: id },
        {
          $set: {
            lastAttemptAt: attempt.at,
            lastSuccess: false,
            lastStatusCode: attempt.statusCode,
            ...(attempt.disable === undefined ? {} : { enabled: false, disabledReason: attempt.disable }),
          },
          $inc: { failedAttempts: 1 },
        },
      );
    },
    async addDeadLetter(webhook, deliveryId, payload, errorMessage, now) {
      const id = randomUUID();
      await deadLetters.insertOne({ _id: id, webhookId: webhook.id, serverId: webhook.serverId, deliveryId, errorMessage, payload, failedAt: now });
      return id;
    },
    async deadLetter(serverId, webhookId, deadLetterId) {
      const doc = await deadLetters.findOne({ _id: deadLetterId, webhookId, serverId });
      return doc === null ? null : { id: doc._id, webhookId: doc.webhookId, deliveryId: doc.deliveryId, payload: doc.payload };
    },
    async updateDeadLetter(id, errorMessage, now) {
      await deadLetters.updateOne({ _id: id }, { $set: { errorMessage, failedAt: now } });
    },
    async removeDeadLetter(serverId, webhookId, deadLetterId) {
      return (await deadLetters.deleteOne({ _id: deadLetterId, webhookId, serverId })) > 0;
    },
    clearDeadLetters: (serverId, webhookId) => deadLetters.deleteMany({ webhookId, serverId }),
  };
}
