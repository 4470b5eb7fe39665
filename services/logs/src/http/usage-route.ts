/** GET /server/usage/{id}: the current hour's quota use and the tier limits of a server. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { ErrorBodySchema, ServerUsageSchema } from '@skald/contracts';
import { HttpError, requireServerRole, serverAccessOf } from '@skald/service-kit';
import { serverUsage } from '../domain/server-usage.ts';
import { tierOfView } from '../domain/server-directory.ts';
import type { LogsRouteDeps } from './deps.ts';
import { MEMBER_ERRORS, ServerIdSchema } from './route-schemas.ts';

export const SUSPENDED_ERROR = 'Server suspended';
export const SUSPENDED_MESSAGE = 'This server is suspended due to an expired or cancelled payment.';

const UsageParams = Type.Object({ id: ServerIdSchema }, { additionalProperties: false });

export async function registerUsageRoute(app: FastifyInstance, deps: LogsRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get(
    '/server/usage/:id',
    {
      // requireServerRole finds the server id in the `id` route parameter.
      preHandler: [app.authenticate, requireServerRole(deps.directory, 'user')],
      schema: {
        tags: ['usage'],
        summary: "A server's log quota use in the current hour and its tier limits",
        description: `A suspended server answers 403 '${SUSPENDED_ERROR}'.`,
        params: UsageParams,
        response: { 200: ServerUsageSchema, ...MEMBER_ERRORS, 403: ErrorBodySchema },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const server = await deps.directory.server(serverId);
      // The web app shows its suspended notice when the error text contains 'suspended' (docs/spec/part-1.txt section 8).
      if (server?.suspended) throw new HttpError(403, SUSPENDED_ERROR, { detail: SUSPENDED_MESSAGE });
      return serverUsage(deps.counters, serverId, tierOfView(server), deps.now(), await deps.cases.bytesOf(serverId));
    },
  );
}
