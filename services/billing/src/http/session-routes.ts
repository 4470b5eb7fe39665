/** POST /billing/create-checkout-session and /billing/create-portal-session (owner only). */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CreateCheckoutSessionBodySchema, CreatePortalSessionBodySchema, PAYMENTS_NOT_CONFIGURED, SessionUrlSchema } from '@skald/contracts';
import type { Payments } from '@skald/ports';
import { requireServerRole, sendError, serverAccessOf, userIdFromRequest } from '@skald/service-kit';
import { startCheckout, startPortal } from '../domain/checkout.ts';
import type { BillingRouteDeps } from './deps.ts';
import { OWNER_ERRORS } from './route-schemas.ts';

const SESSION_ERRORS = { ...OWNER_ERRORS, 502: OWNER_ERRORS[400] } as const;

/** 503 with the text (sent as is: the error handler would mask a thrown 5xx). */
function notConfigured(reply: FastifyReply): FastifyReply {
  return sendError(reply, 503, PAYMENTS_NOT_CONFIGURED);
}

export async function registerSessionRoutes(app: FastifyInstance, deps: BillingRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const checkoutDeps = (payments: Payments) => ({ payments, directory: deps.directory, subscriptions: deps.subscriptions, publicUrl: deps.publicUrl });

  typed.post(
    '/billing/create-checkout-session',
    {
      preHandler: [app.authenticate, requireServerRole(deps.directory, 'owner')],
      schema: {
        tags: ['billing'],
        summary: "Start a payment for a higher tier (owner); answers the provider's checkout page",
        description:
          'Only without an active subscription and only a tier above the current one (409 otherwise); a paid tier without a configured price is refused (400); 503 when payments are not configured.',
        body: CreateCheckoutSessionBodySchema,
        response: { 200: SessionUrlSchema, ...SESSION_ERRORS },
      },
    },
    async (request, reply) => {
      if (!deps.payments) return notConfigured(reply);
      const { serverId } = serverAccessOf(request);
      const session = await startCheckout(checkoutDeps(deps.payments), serverId, request.body.tier);
      await deps.audit.publish({ actorId: userIdFromRequest(request) ?? '', serverId, action: 'billing.checkout-started', details: { tier: request.body.tier } });
      return session;
    },
  );

  typed.post(
    '/billing/create-portal-session',
    {
      preHandler: [app.authenticate, requireServerRole(deps.directory, 'owner')],
      schema: {
        tags: ['billing'],
        summary: "Open the provider's subscription portal for the server (owner)",
        description: 'Needs the server to have a payment customer (409 otherwise); 503 when payments are not configured.',
        body: CreatePortalSessionBodySchema,
        response: { 200: SessionUrlSchema, ...SESSION_ERRORS },
      },
    },
    async (request, reply) => {
      if (!deps.payments) return notConfigured(reply);
      return startPortal(checkoutDeps(deps.payments), serverAccessOf(request).serverId);
    },
  );
}
