/** GET /tiers (public) and GET /tiers/current-tier/{serverId} (any member). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CurrentTierSchema, TIERS, TierListSchema } from '@skald/contracts';
import { requireServerRole, serverAccessOf } from '@skald/service-kit';
import { currentTierOf } from '../domain/current-tier.ts';
import type { BillingRouteDeps } from './deps.ts';
import { MEMBER_ERRORS, ServerIdParamsSchema } from './route-schemas.ts';

export async function registerTierRoutes(app: FastifyInstance, deps: BillingRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get(
    '/tiers',
    {
      schema: {
        tags: ['billing'],
        security: [],
        summary: 'The eight tiers, lowest to highest, with their prices and limits',
        description: 'Public: the Terms of Service page reads the retention table from it (docs/spec/part-2.txt sections 2, 3).',
        response: { 200: TierListSchema },
      },
    },
    async () => TIERS.map((t) => ({ ...t })),
  );

  typed.get(
    '/tiers/current-tier/:serverId',
    {
      preHandler: [app.authenticate, requireServerRole(deps.directory, 'user')],
      schema: {
        tags: ['billing'],
        summary: "The server's tier and its subscription (any member)",
        description: 'A server that never subscribed answers its tier with null subscription fields and is_cancelling false.',
        params: ServerIdParamsSchema,
        response: { 200: CurrentTierSchema, ...MEMBER_ERRORS },
      },
    },
    async (request) => currentTierOf(serverAccessOf(request).serverId, deps.directory, deps.subscriptions),
  );
}
