/**
 * The staff admin area's tier and suspension calls (docs/spec/part-2.txt sections 4, 6, 7). They live in billing, not in the
 * admin service, because billing is the one publisher of a server's tier and suspension: the route table
 * gives these two exact paths to billing, ahead of the '/admin' prefix.
 *   PUT /admin/servers/{id}/tier {tier}            site role admin or superadmin
 *   PUT /admin/servers/{id}/suspend {suspended}    superadmin only
 * Access is checked in onRequest, before the body is validated: a caller without the role learns nothing.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { ErrorBodySchema, StaffServerStateSchema, StaffSuspensionBodySchema, StaffTierBodySchema, isTierKey } from '@skald/contracts';
import type { StaffServerState } from '@skald/contracts';
import { HttpError, SERVER_NOT_FOUND, requireSiteRole, userIdFromRequest } from '@skald/service-kit';
import type { ServerBillingState, StaffActor } from '../domain/billing-state.ts';
import { UNKNOWN_TIER } from '../domain/checkout.ts';
import type { BillingRouteDeps } from './deps.ts';

const ServerParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

const STAFF_ERRORS = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema } as const;

export async function registerStaffRoutes(app: FastifyInstance, deps: BillingRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  /** The acting staff member; 404 for a server billing's read model does not know. */
  async function prepare(request: FastifyRequest, serverId: string): Promise<StaffActor> {
    if ((await deps.directory.server(serverId)) === null) throw new HttpError(404, SERVER_NOT_FOUND);
    const id = userIdFromRequest(request)!;
    return { id, email: (await deps.directory.emailOf(id)) ?? '' };
  }

  const answer = (serverId: string, state: ServerBillingState): StaffServerState => ({ id: serverId, tier: state.tier, is_suspended: state.suspended });

  typed.put(
    '/admin/servers/:id/tier',
    {
      onRequest: [app.authenticate, requireSiteRole('admin', 'superadmin')],
      schema: {
        tags: ['admin', 'billing'],
        summary: "Set a server's tier (staff: admin, superadmin)",
        description:
          "Published as server.tier-changed with an audit entry naming the staff member. The staff tier holds over the Stripe subscription's until Stripe asks for another tier (docs/BILLING.md). 400 for an unknown tier.",
        params: ServerParamsSchema,
        body: StaffTierBodySchema,
        response: { 200: StaffServerStateSchema, ...STAFF_ERRORS },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { tier } = request.body;
      if (!isTierKey(tier)) throw new HttpError(400, UNKNOWN_TIER);
      const actor = await prepare(request, id);
      return answer(id, await deps.state.setStaffTier(id, tier, actor));
    },
  );

  typed.put(
    '/admin/servers/:id/suspend',
    {
      onRequest: [app.authenticate, requireSiteRole('superadmin')],
      schema: {
        tags: ['admin', 'billing'],
        summary: 'Suspend or un-suspend a server (staff: superadmin)',
        description:
          'suspended true: ingestion answers 403 until staff lift it (payments do not). suspended false lifts every suspension, a non-payment one until the subscription is paid again (docs/BILLING.md). Published as server.suspension-changed with an audit entry.',
        params: ServerParamsSchema,
        body: StaffSuspensionBodySchema,
        response: { 200: StaffServerStateSchema, ...STAFF_ERRORS },
      },
    },
    async (request) => {
      const { id } = request.params;
      const actor = await prepare(request, id);
      return answer(id, await deps.state.setStaffSuspension(id, request.body.suspended, actor));
    },
  );
}
