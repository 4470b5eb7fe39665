/** GET/PUT /settings/colors and GET /settings/levels, plus GET /server/usage/{id}. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { COLOR_LEVELS, LevelColorsUpdateSchema } from '../domain/level-colors.ts';
import { serverUsage } from '../domain/server-usage.ts';
import { requireServerRole } from './access.ts';
import type { LogsRouteDeps } from './deps.ts';
import { sendError } from './errors.ts';

const ServerIdQuery = Type.Object({ serverId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
const UsageParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

export const SUSPENDED_ERROR = 'Server suspended';
export const SUSPENDED_MESSAGE = 'This server is suspended due to an expired or cancelled payment.';

export async function registerSettingsRoutes(app: FastifyInstance, deps: LogsRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get('/settings/colors', { schema: { querystring: ServerIdQuery } }, async (request, reply) => {
    if (!(await requireServerRole(deps, request, reply, request.query.serverId, 'user'))) return reply;
    return deps.colors.get(request.query.serverId);
  });

  typed.put('/settings/colors', { schema: { querystring: ServerIdQuery, body: LevelColorsUpdateSchema } }, async (request, reply) => {
    if (!(await requireServerRole(deps, request, reply, request.query.serverId, 'admin'))) return reply;
    return deps.colors.update(request.query.serverId, request.body);
  });

  typed.get('/settings/levels', { schema: { querystring: ServerIdQuery } }, async (request, reply) => {
    if (!(await requireServerRole(deps, request, reply, request.query.serverId, 'user'))) return reply;
    return { types: COLOR_LEVELS };
  });

  typed.get('/server/usage/:id', { schema: { params: UsageParams } }, async (request, reply) => {
    const serverId = request.params.id;
    if (!(await requireServerRole(deps, request, reply, serverId, 'user'))) return reply;
    const info = await deps.directory.server(serverId);
    // The web app shows its suspended notice when the error text contains 'suspended' (spec 000 §8).
    if (info?.suspended) return sendError(reply, 403, SUSPENDED_ERROR, SUSPENDED_MESSAGE);
    return serverUsage(deps.counters, serverId, info, deps.now());
  });
}
