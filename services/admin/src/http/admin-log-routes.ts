/** GET /admin/logs: the staff actions (docs/spec/part-2.txt section 2 "Admin logs page", superadmin). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AdminLogListSchema } from '@skald/contracts';
import { requireSiteRole } from '@skald/service-kit';
import { toAdminLogEntry } from '../domain/audit-view.ts';
import type { AdminRouteDeps } from './deps.ts';
import { STAFF_ERRORS } from './route-schemas.ts';

/** The page filters on the client (docs/spec/part-2.txt section 2): the newest this many staff actions are answered. */
export const ADMIN_LOGS_LIMIT = 1000;

export async function registerAdminLogRoutes(app: FastifyInstance, deps: AdminRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.get(
    '/admin/logs',
    {
      preHandler: [app.authenticate, requireSiteRole('superadmin')],
      schema: {
        tags: ['admin'],
        summary: 'The newest staff actions (superadmin)',
        description: `Newest first, at most ${ADMIN_LOGS_LIMIT}. server_name is the server's current name (null for actions on a user, or a server that no longer exists).`,
        response: { 200: AdminLogListSchema, ...STAFF_ERRORS },
      },
    },
    async () => {
      const actions = await deps.trail.staffActions(ADMIN_LOGS_LIMIT);
      const names = new Map<string, string | null>();
      for (const serverId of new Set(actions.map((a) => a.serverId).filter((id): id is string => id !== null))) {
        names.set(serverId, (await deps.directory.server(serverId))?.name ?? null);
      }
      return { logs: actions.map((a) => toAdminLogEntry(a, a.serverId === null ? null : (names.get(a.serverId) ?? null))) };
    },
  );
}
