/**
 * The billing service: the tier list, each server's subscription, and (with Stripe configured)
 * checkout, the customer portal and Stripe's webhooks. The only publisher of a server's tier and
 * suspension (`server.tier-changed`, `server.suspension-changed` on the identity topic).
 */
import type { FastifyInstance } from 'fastify';
import { authPlugin, createAuditPublisher, createIdentityReadModel } from '@skald/service-kit';
import type { Payments, Worker } from '@skald/ports';
import type { ServiceDeps, ServiceFactory, ServiceModule } from '@skald/service-kit';
import { createBillingState } from './domain/billing-state.ts';
import { startPeriodEndSweep } from './domain/period-end.ts';
import { createSubscriptionRepository } from './domain/subscriptions.ts';
import { createWebhookProcessor } from './domain/webhook-events.ts';
import { registerBillingRoutes } from './http/routes.ts';

export interface BillingServiceOptions {
  /** The clock (period ends, grace); default Date.now. */
  readonly now?: () => number;
  /** The payment provider; default deps.payments (null: not configured). */
  readonly payments?: Payments | null;
  /** Period-end sweep period; default 10 minutes. */
  readonly periodEndEveryMs?: number;
}

export async function createBillingServiceWith(deps: ServiceDeps, options: BillingServiceOptions = {}): Promise<ServiceModule> {
  const directory = await createIdentityReadModel({ bus: deps.bus, docs: deps.docs, group: 'billing.identity' });
  const subscriptions = await createSubscriptionRepository(deps.docs);
  const payments = options.payments !== undefined ? options.payments : (deps.payments ?? null);
  const now = options.now ?? Date.now;
  const audit = createAuditPublisher({ bus: deps.bus, directory });
  const state = createBillingState({ bus: deps.bus, directory, subscriptions, audit });
  const webhooks = payments ? await createWebhookProcessor({ docs: deps.docs, payments, subscriptions, state, log: deps.log, now }) : null;
  let sweep: Worker | null = null;
  let started = false;
  return {
    name: 'billing',
    async routes(app: FastifyInstance) {
      await app.register(authPlugin, { keys: deps.keys, isRevoked: (claims) => directory.isRevoked(claims) });
      await registerBillingRoutes(app, { directory, subscriptions, state, payments, webhooks, publicUrl: deps.publicUrl, log: deps.log, audit });
    },
    async start() {
      await directory.start();
      sweep = await startPeriodEndSweep(deps.jobs, state, { everyMs: options.periodEndEveryMs ?? 10 * 60_000, now, log: deps.log });
      started = true;
    },
    async stop() {
      started = false;
      const worker = sweep;
      sweep = null;
      if (worker) await worker.close();
      await directory.stop();
    },
    async ready() {
      return started;
    },
  };
}

export const createBillingService: ServiceFactory = (deps) => createBillingServiceWith(deps);
