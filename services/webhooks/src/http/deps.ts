/** The one dependency bag every webhooks route file receives (built by webhooks-service.ts). */
import type { FastifyBaseLogger } from 'fastify';
import type { OutboundGuard } from '@skald/service-kit';
import type { WebhookAudit } from '../events/audit.ts';
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
  readonly audit: WebhookAudit;
  readonly log: FastifyBaseLogger;
  readonly now: () => number;
}
