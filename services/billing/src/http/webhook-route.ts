/**
 * POST /billing/webhook: Stripe's events. The signature is checked on the RAW body: this route lives in
 * its own plugin scope whose JSON content-type parser keeps the bytes (a Buffer) instead of parsing them,
 * so nothing re-serialises the payload before verification; the other billing routes keep the normal parser.
 */
import type { FastifyInstance } from 'fastify';
import { ErrorBodySchema, PAYMENTS_NOT_CONFIGURED, WebhookAckSchema } from '@skald/contracts';
import { WebhookVerificationError } from '@skald/ports';
import { HttpError, sendError } from '@skald/service-kit';
import type { BillingRouteDeps } from './deps.ts';

export const INVALID_SIGNATURE = 'Invalid webhook signature.';
export const EVENT_IN_PROGRESS = 'This event is being processed; retry later.';

export async function registerWebhookRoute(app: FastifyInstance, deps: BillingRouteDeps): Promise<void> {
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    scope.post(
      '/billing/webhook',
      {
        schema: {
          tags: ['billing'],
          // Stripe calls it without a session: the signature is its credential.
          security: [],
          summary: "Stripe's webhook events (signed; each event applied once)",
          description:
            'Verified with STRIPE_WEBHOOK_SECRET on the raw body, the Stripe-Signature timestamp within the tolerance (400 otherwise); 503 when webhooks are not configured; 409 while the same event is still being applied.',
          response: { 200: WebhookAckSchema, 400: ErrorBodySchema, 409: ErrorBodySchema, 503: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        if (!deps.payments || !deps.payments.webhooksEnabled || !deps.webhooks) return sendError(reply, 503, PAYMENTS_NOT_CONFIGURED);
        const raw = request.body;
        if (!Buffer.isBuffer(raw)) throw new HttpError(400, INVALID_SIGNATURE, { detail: 'the body must be application/json' });
        const header = request.headers['stripe-signature'];
        let event;
        try {
          event = deps.payments.parseWebhook(raw, typeof header === 'string' ? header : undefined);
        } catch (error) {
          if (error instanceof WebhookVerificationError) {
            request.log.warn({ reason: error.message }, 'billing webhook refused');
            throw new HttpError(400, INVALID_SIGNATURE);
          }
          throw error;
        }
        const outcome = await deps.webhooks.handle(event);
        if (outcome === 'in-progress') throw new HttpError(409, EVENT_IN_PROGRESS);
        request.log.info({ eventId: event.id, type: event.type, outcome }, 'billing webhook');
        return { received: true };
      },
    );
  });
}
