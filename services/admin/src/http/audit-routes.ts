/** GET /server/{id}/audit-logs: a server's audit trail for its owner and admins (docs/spec/part-2.txt sections 2, 7, 9). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { AUDIT_PAGE_SIZE, AuditLogPageSchema } from '@skald/contracts';
import { requireServerRole, serverAccessOf } from '@skald/service-kit';
import { toAuditLogEntry } from '../domain/audit-view.ts';
import type { AdminRouteDeps } from './deps.ts';
import { SERVER_ADMIN_ERRORS } from './route-schemas.ts';

export const MAX_AUDIT_PAGE_SIZE = 100;

const ParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

const QuerySchema = Type.Object(
  {
    /** A user id (the `users` list's ids); empty means every user. */
    user: Type.Optional(Type.String({ maxLength: 64 })),
    /** An action name; empty means every action. */
    action: Type.Optional(Type.String({ maxLength: 64 })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_AUDIT_PAGE_SIZE })),
  },
  { additionalProperties: false },
);

export async function registerAuditRoutes(app: FastifyInstance, deps: AdminRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.get(
    '/server/:id/audit-logs',
    {
      preHandler: [app.authenticate, requireServerRole(deps.directory, 'admin')],
      schema: {
        tags: ['audit'],
        summary: "A server's audit trail, newest first (owner and admin)",
        description:
          `Filters (user id, action) and paging run on the server; pageSize defaults to ${AUDIT_PAGE_SIZE} (at most ${MAX_AUDIT_PAGE_SIZE}). ` +
          '`users` lists everyone who appears in the trail (the User filter), whatever the filters; `total` counts the matching entries.',
        params: ParamsSchema,
        querystring: QuerySchema,
        response: { 200: AuditLogPageSchema, ...SERVER_ADMIN_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const { user, action } = request.query;
      const page = request.query.page ?? 1;
      const pageSize = request.query.pageSize ?? AUDIT_PAGE_SIZE;
      const filter = { serverId, ...(user ? { userId: user } : {}), ...(action ? { action } : {}) };
      const [found, users] = await Promise.all([deps.trail.page(filter, (page - 1) * pageSize, pageSize), deps.trail.usersOf(serverId)]);
      return { logs: found.entries.map(toAuditLogEntry), users, total: found.total };
    },
  );
}
