/** The one dependency bag every billing route file receives (built by billing-service.ts). */
import type { FastifyBaseLogger } from 'fastify';
import type { IdentityReadModel } from '@skald/service-kit';
import type { SubscriptionRepository } from '../domain/subscriptions.ts';

export interface BillingRouteDeps {
  /** Members' roles (requireServerRole) and each server's tier and suspension as last published. */
  readonly directory: IdentityReadModel;
  readonly subscriptions: SubscriptionRepository;
  readonly log: FastifyBaseLogger;
}
