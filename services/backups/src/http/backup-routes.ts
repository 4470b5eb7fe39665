/** The backup list, create-now, download and delete (owner only). */
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { BackupCreatedSchema, BackupListSchema, ErrorBodySchema, MessageAnswerSchema } from '@skald/contracts';
import { HttpError, requireServerRole, serverAccessOf, userIdFromRequest } from '@skald/service-kit';
import { backupView } from '../domain/backup-records.ts';
import { BACKUP_NOT_FOUND } from '../domain/backup-runs.ts';
import type { BackupsRouteDeps } from './deps.ts';
import { BackupParamsSchema, OWNER_ERRORS, ServerParamsSchema } from './route-schemas.ts';

/** The SQL file, streamed as it is decompressed (never serialised); binary for the OpenAPI document. */
const SqlFile = { schema: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }) };

export const BACKUP_DELETED = 'Backup deleted';

export async function registerBackupRoutes(app: FastifyInstance, deps: BackupsRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const ownerOnly = [app.authenticate, requireServerRole(deps.directory, 'owner')];

  typed.get(
    '/backups/:serverId',
    {
      preHandler: ownerOnly,
      schema: {
        tags: ['backups'],
        summary: "The server's backups, newest first (owner)",
        description: 'size is the SQL file in bytes as downloaded; status running, done or failed; error says why a run failed.',
        params: ServerParamsSchema,
        response: { 200: BackupListSchema, ...OWNER_ERRORS },
      },
    },
    async (request) => (await deps.records.list(serverAccessOf(request).serverId)).map(backupView),
  );

  typed.post(
    '/backups/:serverId/create',
    {
      preHandler: ownerOnly,
      schema: {
        tags: ['backups'],
        summary: 'Back the game database up now (owner); answers 202 and the run continues',
        description:
          "403 when the tier keeps no backups, 400 when host, user or name are missing, 409 while a backup of the server runs. A run that cannot reach the database (wrong password, unreachable host) is not refused here: it is listed as failed with its reason.",
        params: ServerParamsSchema,
        response: { 202: BackupCreatedSchema, ...OWNER_ERRORS, 409: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      const started = await deps.runs.create(serverAccessOf(request).serverId, userIdFromRequest(request) ?? 'unknown');
      return reply.code(202).send(started);
    },
  );

  typed.get(
    '/backups/:serverId/download/:backupId',
    {
      preHandler: ownerOnly,
      schema: {
        tags: ['backups'],
        summary: 'Download a finished backup as a .sql file (owner)',
        description: 'Plain SQL, saved as backup-{id}.sql; restore with `mariadb <database> < backup-{id}.sql`.',
        params: BackupParamsSchema,
        response: { 200: { description: 'The SQL dump', content: { 'application/sql': SqlFile } }, ...OWNER_ERRORS },
      },
    },
    async (request, reply) => {
      const { serverId } = serverAccessOf(request);
      const backup = await deps.records.find(serverId, request.params.backupId);
      const stored = backup?.status === 'done' && backup.objectKey ? await deps.objects.get(backup.objectKey) : null;
      if (!backup || !stored) throw new HttpError(404, BACKUP_NOT_FOUND);
      await deps.audit.publish({ actorId: userIdFromRequest(request) ?? 'unknown', serverId, action: 'backup.downloaded', details: { backupId: backup._id } });
      const body = new PassThrough();
      // A broken stored object ends the download early: the client sees fewer bytes than Content-Length.
      pipeline(stored.body, createGunzip(), body).catch((error: unknown) => request.log.warn({ err: error, backupId: backup._id }, 'backups: download stream failed'));
      return reply
        .type('application/sql; charset=utf-8')
        .header('content-disposition', `attachment; filename="backup-${backup._id}.sql"`)
        .header('content-length', String(backup.size))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(body);
    },
  );

  typed.delete(
    '/backups/:serverId/:backupId',
    {
      preHandler: ownerOnly,
      schema: {
        tags: ['backups'],
        summary: 'Delete a backup and its file (owner)',
        description: '409 while the backup is still running.',
        params: BackupParamsSchema,
        response: { 200: MessageAnswerSchema, ...OWNER_ERRORS, 409: ErrorBodySchema },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      await deps.runs.remove(serverId, request.params.backupId, userIdFromRequest(request) ?? 'unknown');
      return { message: BACKUP_DELETED };
    },
  );
}
