/** GET/PUT /settings/colors and GET /settings/levels. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { COLOR_LEVELS, LevelColorsSchema, LevelColorsUpdateSchema, LevelListSchema } from '@skald/contracts';
import { requireServerRole, serverAccessOf, userIdFromRequest } from '@skald/service-kit';
import type { LogsRouteDeps } from './deps.ts';
import { ADMIN_ERRORS, MEMBER_ERRORS, ServerIdQuerySchema } from './route-schemas.ts';

export async function registerSettingsRoutes(app: FastifyInstance, deps: LogsRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get(
    '/settings/colors',
    {
      preHandler: [app.authenticate, requireServerRole(deps.directory, 'user')],
      schema: {
        tags: ['settings'],
        summary: "The server's colour for every log level",
        description: 'Levels never set answer the default colours (docs/spec/part-1.txt section 3).',
        querystring: ServerIdQuerySchema,
        response: { 200: LevelColorsSchema, ...MEMBER_ERRORS },
      },
    },
    async (request) => deps.colors.get(serverAccessOf(request).serverId),
  );

  typed.put(
    '/settings/colors',
    {
      preHandler: [app.authenticate, requireServerRole(deps.directory, 'admin')],
      schema: {
        tags: ['settings'],
        summary: 'Change level colours (admin or owner); levels left out keep their colours',
        description: 'Answers the full map after the change. Colours are CSS hex (#rgb, #rgba, #rrggbb, #rrggbbaa).',
        querystring: ServerIdQuerySchema,
        body: LevelColorsUpdateSchema,
        response: { 200: LevelColorsSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const colors = await deps.colors.update(serverId, request.body);
      await deps.audit.publish({ actorId: userIdFromRequest(request) ?? '', serverId, action: 'logs.colors-saved', details: { colors: request.body } });
      return colors;
    },
  );

  typed.get(
    '/settings/levels',
    {
      preHandler: [app.authenticate, requireServerRole(deps.directory, 'user')],
      schema: {
        tags: ['settings'],
        summary: 'The levels whose colours can be set',
        querystring: ServerIdQuerySchema,
        response: { 200: LevelListSchema, ...MEMBER_ERRORS },
      },
    },
    async () => ({ types: [...COLOR_LEVELS] }),
  );
}
