/** The one dependency bag every billing route file receives (built by billing-service.ts). */
import type { FastifyBaseLogger } from 'fastify';
import type { Payments } from '@skald/ports';
import type { AuditPublisher, IdentityReadModel } from '@skald/service-kit';
import type { BillingState } from '../domain/billing-state.ts';
import type { SubscriptionRepository } from '../domain/subscriptions.ts';
import type { WebhookProcessor } from '../domain/webhook-events.ts';

export interface BillingRouteDeps {
  /** Members' roles (requireServerRole) and each server's tier and suspension as last published. */
  readonly directory: IdentityReadModel;
  readonly subscriptions: SubscriptionRepository;
  /** Every tier or suspension change goes through it (serialised, published, recorded). */
  readonly state: BillingState;
  /** Null when Stripe is not configured: checkout and portal answer 503. */
  readonly payments: Payments | null;
  /** Null when Stripe is not configured. */
  readonly webhooks: WebhookProcessor | null;
  /** PUBLIC_URL: the base of the checkout return URLs. */
  readonly publicUrl: string;
  readonly log: FastifyBaseLogger;
  /** Audit entries of the owners' own billing actions (checkout started). */
  readonly audit: AuditPublisher;
}
