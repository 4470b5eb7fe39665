/** GET /admin/stats and GET /admin/users: the staff dashboard and the accounts page (docs/spec/part-2.txt sections 2, 3, 6). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AdminStatsSchema, AdminUserListSchema } from '@skald/contracts/api';
import { requireSiteRole } from '@skald/service-kit';
import { computeAdminStats } from '../domain/admin-stats.ts';
import { toAdminUser } from '../domain/admin-views.ts';
import type { AdminRouteDeps } from './deps.ts';
import { STAFF_ERRORS } from './route-schemas.ts';

export async function registerStatsRoutes(app: FastifyInstance, deps: AdminRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get(
    '/admin/stats',
    {
      preHandler: [app.authenticate, requireSiteRole('moderator', 'admin', 'superadmin')],
      schema: {
        tags: ['admin'],
        summary: 'Totals, 2FA adoption, the last 7 days and the top servers (staff: moderator and up)',
        description:
          "From the admin area's read model: log counts as the logs service last published them (at most a few seconds old), accounts and servers from auth's facts; servers and account counts are at most a few seconds older than the read model. " +
          'Series: the last 7 UTC days, oldest first, missing days 0. serversWithoutLogs: servers with no stored text log.',
        response: { 200: AdminStatsSchema, ...STAFF_ERRORS },
      },
    },
    async () => {
      const [servers, users] = await Promise.all([deps.servers.knownServers(), deps.userFigures.get()]);
      return computeAdminStats(servers, users, deps.now());
    },
  );

  typed.get(
    '/admin/users',
    {
      preHandler: [app.authenticate, requireSiteRole('admin', 'superadmin')],
      schema: {
        tags: ['admin'],
        summary: 'Every account (staff: admin and up)',
        description: 'Oldest first. role: user (the default site role), moderator, admin or superadmin; last_successful_login null before the first sign-in.',
        response: { 200: AdminUserListSchema, ...STAFF_ERRORS },
      },
    },
    async () => ({ users: (await deps.overview.users.find({}, { sort: { createdAt: 1 } })).map(toAdminUser) }),
  );
}
