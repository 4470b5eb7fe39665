/**
 * The staff server pages (docs/spec/part-2.txt sections 2, 3, 7; moderator and up): the list, the tier options, one server's
 * detail and its Users, Database Backups and Audit Logs tabs. The Logs and Photo Logs tabs are the logs
 * service's routes (its log store); tier, suspension and member changes are billing's and auth's.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { TIERS } from '@skald/contracts';
import {
  ADMIN_AUDIT_PAGE_SIZE,
  AdminServerAuditPageSchema,
  AdminServerBackupsSchema,
  AdminServerDetailSchema,
  AdminServerListSchema,
  AdminServerUsersSchema,
  AdminTierListSchema,
} from '@skald/contracts/api';
import type { OverviewServer } from '../domain/overview.ts';
import { HttpError, SERVER_NOT_FOUND, requireSiteRole } from '@skald/service-kit';
import { listServers, toServerDetail } from '../domain/admin-views.ts';
import type { AdminRouteDeps } from './deps.ts';
import { STAFF_ERRORS, STAFF_READ_ERRORS } from './route-schemas.ts';

export const MAX_ADMIN_AUDIT_PAGE_SIZE = 100;

const ParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
const PageQuerySchema = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ADMIN_AUDIT_PAGE_SIZE })),
  },
  { additionalProperties: false },
);

export async function registerServerRoutes(app: FastifyInstance, deps: AdminRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const moderator = { preHandler: [app.authenticate, requireSiteRole('moderator', 'admin', 'superadmin')] };
  const tags = ['admin'];

  /** A server auth announced (404 otherwise, also for one deleted since). */
  async function knownServer(id: string): Promise<OverviewServer> {
    const server = await deps.overview.servers.findOne({ _id: id });
    if (server === null || server.known !== true) throw new HttpError(404, SERVER_NOT_FOUND);
    return server;
  }

  typed.get(
    '/admin/servers',
    {
      ...moderator,
      schema: {
        tags,
        summary: 'Every server with its figures (staff: moderator and up)',
        description: 'Newest first. Counts as their owners last published them (logs: at most a few seconds old); 0 before the first figures. At most a few seconds older than the read model.',
        response: { 200: AdminServerListSchema, ...STAFF_ERRORS },
      },
    },
    async () => listServers(await deps.servers.knownServers()),
  );

  typed.get(
    '/admin/tiers',
    { ...moderator, schema: { tags, summary: "The tier selector's options, lowest first", response: { 200: AdminTierListSchema, ...STAFF_ERRORS } } },
    async () => ({ tiers: TIERS.map((t) => ({ key: t.key, label: t.label })) }),
  );

  typed.get(
    '/admin/servers/:id',
    { ...moderator, schema: { tags, summary: "A server's detail with its tier's limits", params: ParamsSchema, response: { 200: AdminServerDetailSchema, ...STAFF_READ_ERRORS } } },
    async (request) => toServerDetail(await knownServer(request.params.id)),
  );

  typed.get(
    '/admin/servers/:id/users',
    { ...moderator, schema: { tags, summary: "A server's members, the owner first", params: ParamsSchema, response: { 200: AdminServerUsersSchema, ...STAFF_READ_ERRORS } } },
    async (request) => {
      const server = await knownServer(request.params.id);
      const members = await deps.overview.membersOf(server._id);
      const accounts = await deps.overview.users.find({ _id: { $in: members.map((m) => m.userId) } });
      const byId = new Map(accounts.map((a) => [a._id, a]));
      return {
        users: members.flatMap((m) => {
          const account = byId.get(m.userId);
          return account === undefined ? [] : [{ id: account._id, username: account.username, email: account.email, role: m.role }];
        }),
      };
    },
  );

  typed.get(
    '/admin/servers/:id/backups',
    {
      ...moderator,
      schema: { tags, summary: "A server's stored backups with their sizes, newest first", description: 'As the backups service last published them.', params: ParamsSchema, response: { 200: AdminServerBackupsSchema, ...STAFF_READ_ERRORS } },
    },
    async (request) => {
      const server = await knownServer(request.params.id);
      const backups = [...(server.backups ?? [])].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      return { backups: backups.map((b) => ({ id: b.id, size: b.size, created_at: b.createdAt })) };
    },
  );

  typed.get(
    '/admin/servers/:id/audit-logs',
    {
      ...moderator,
      schema: {
        tags,
        summary: "A server's audit trail, newest first, paged",
        description: `limit defaults to ${ADMIN_AUDIT_PAGE_SIZE} (at most ${MAX_ADMIN_AUDIT_PAGE_SIZE}); pagination.total counts every entry of the server.`,
        params: ParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: AdminServerAuditPageSchema, ...STAFF_READ_ERRORS },
      },
    },
    async (request) => {
      const server = await knownServer(request.params.id);
      const page = request.query.page ?? 1;
      const limit = request.query.limit ?? ADMIN_AUDIT_PAGE_SIZE;
      const found = await deps.trail.page({ serverId: server._id }, (page - 1) * limit, limit);
      return {
        logs: found.entries.map((e) => ({ id: e._id, action: e.action, created_at: e.at, user_id: e.actorId, details: e.details })),
        pagination: { page, limit, total: found.total },
      };
    },
  );
}
