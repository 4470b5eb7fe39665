/** The one dependency bag every webhooks route file receives (built by webhooks-service.ts). */
import type { FastifyBaseLogger } from 'fastify';
import type { AuditPublisher, OutboundGuard } from '@skald/service-kit';
import type { ServerDirectory } from '../domain/limits.ts';
import type { SendSettings } from '../domain/send.ts';
import type { SeenFields } from '../domain/seen-fields.ts';
import type { WebhookStore } from '../domain/webhook-store.ts';

export interface WebhooksRouteDeps {
  /** Members' roles (the guards) and each server's tier (maxWebhooks) and name. */
  readonly directory: ServerDirectory;
  readonly store: WebhookStore;
  readonly seen: SeenFields;
  /** Checks destinations at save, and every test and replay connection. */
  readonly guard: OutboundGuard;
  readonly send: SendSettings;
  /** webhook.* and alert.* entries: details name the webhook and its platform or the rule and its kind, never a URL, chat_id or secret. */
  readonly audit: AuditPublisher;
  readonly log: FastifyBaseLogger;
  readonly now: () => number;
}
