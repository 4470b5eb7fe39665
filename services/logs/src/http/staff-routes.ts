/**
 * The staff admin area's Logs and Photo Logs tabs of a server (docs/spec/part-2.txt sections 2, 7, 9): served here, from the
 * log store, because the logs are this service's (the route table gives these two exact paths to logs,
 * ahead of the '/admin' prefix). Site roles moderator, admin and superadmin (docs/spec/part-2.txt section 6).
 *   GET /admin/servers/{id}/logs                       the newest ADMIN_SERVER_LOGS_LIMIT text logs (the tab filters and pages them)
 *   GET /admin/servers/{id}/photologs?page&limit=12    one page of photo logs with {page, limit, total}
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { ADMIN_PHOTO_PAGE_SIZE, ADMIN_SERVER_LOGS_LIMIT, AdminPhotoLogPageSchema, AdminServerLogsSchema, ErrorBodySchema } from '@skald/contracts/api';
import { HttpError, SERVER_NOT_FOUND, requireSiteRole } from '@skald/service-kit';
import { toApiLog } from '../domain/log-view.ts';
import type { LogsRouteDeps } from './deps.ts';
import { ServerIdSchema } from './route-schemas.ts';

export const MAX_ADMIN_PHOTO_PAGE_SIZE = 100;

const ParamsSchema = Type.Object({ id: ServerIdSchema }, { additionalProperties: false });
const PhotoQuerySchema = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ADMIN_PHOTO_PAGE_SIZE })),
  },
  { additionalProperties: false },
);
const ERRORS = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema } as const;

export async function registerStaffRoutes(app: FastifyInstance, deps: LogsRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const staff = { onRequest: [app.authenticate, requireSiteRole('moderator', 'admin', 'superadmin')] };
  const tags = ['admin'];

  /** 404 for a server the identity read model does not hold (never created, or deleted). */
  async function existing(serverId: string): Promise<string> {
    if ((await deps.directory.server(serverId)) === null) throw new HttpError(404, SERVER_NOT_FOUND);
    return serverId;
  }

  typed.get(
    '/admin/servers/:id/logs',
    {
      ...staff,
      schema: {
        tags,
        summary: "A server's newest text logs (staff: moderator and up)",
        description: `Newest first, at most ${ADMIN_SERVER_LOGS_LIMIT}; the tab filters by level, type and resource and pages them on the client.`,
        params: ParamsSchema,
        response: { 200: AdminServerLogsSchema, ...ERRORS },
      },
    },
    async (request) => {
      const serverId = await existing(request.params.id);
      const page = await deps.logStore.query({ serverId, logType: 'text', offset: 0, limit: ADMIN_SERVER_LOGS_LIMIT });
      return {
        logs: page.items.map((r) => ({
          id: r.id,
          level: r.level,
          type: r.type,
          resource: r.resource,
          message: r.message,
          metadata: r.metadata,
          created_at: new Date(r.createdAt).toISOString(),
        })),
      };
    },
  );

  typed.get(
    '/admin/servers/:id/photologs',
    {
      ...staff,
      schema: {
        tags,
        summary: "A server's photo logs, one page (staff: moderator and up)",
        description: `Newest first; limit defaults to ${ADMIN_PHOTO_PAGE_SIZE} (at most ${MAX_ADMIN_PHOTO_PAGE_SIZE}). image_path is a signed relative URL valid 10 to 20 minutes.`,
        params: ParamsSchema,
        querystring: PhotoQuerySchema,
        response: { 200: AdminPhotoLogPageSchema, ...ERRORS },
      },
    },
    async (request) => {
      const serverId = await existing(request.params.id);
      const page = request.query.page ?? 1;
      const limit = request.query.limit ?? ADMIN_PHOTO_PAGE_SIZE;
      const found = await deps.logStore.query({ serverId, logType: 'photo', offset: (page - 1) * limit, limit });
      const now = deps.now();
      return {
        photos: found.items.map((r) => {
          const log = toApiLog(r, deps.signer, now);
          return { id: log.id, image_path: log.image_path, message: log.message, created_at: log.created_at };
        }),
        pagination: { page, limit, total: found.total },
      };
    },
  );
}
