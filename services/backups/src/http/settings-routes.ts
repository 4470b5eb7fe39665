/** GET and POST /backups/{serverId}/settings (owner only). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { BackupSettingsBodySchema, BackupSettingsSchema } from '@skald/contracts';
import { requireServerRole, serverAccessOf, userIdFromRequest } from '@skald/service-kit';
import { settingsView } from '../domain/backup-settings.ts';
import { checkSettingsInput } from '../domain/settings-input.ts';
import { maxBackupsOf } from '../domain/server-directory.ts';
import type { BackupsRouteDeps } from './deps.ts';
import { OWNER_ERRORS, ServerParamsSchema } from './route-schemas.ts';

export async function registerSettingsRoutes(app: FastifyInstance, deps: BackupsRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get(
    '/backups/:serverId/settings',
    {
      preHandler: [app.authenticate, requireServerRole(deps.directory, 'owner')],
      schema: {
        tags: ['backups'],
        summary: "The server's backup settings and its tier's maxBackups (owner)",
        description: 'Never the password: has_password says whether one is stored. Unsaved settings answer the defaults (interval 24, port 3306).',
        params: ServerParamsSchema,
        response: { 200: BackupSettingsSchema, ...OWNER_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      return settingsView(await deps.settings.get(serverId), await maxBackupsOf(deps.directory, serverId));
    },
  );

  typed.post(
    '/backups/:serverId/settings',
    {
      preHandler: [app.authenticate, requireServerRole(deps.directory, 'owner')],
      schema: {
        tags: ['backups'],
        summary: 'Save the backup settings (owner); the database is not contacted',
        description:
          'db_pass_enc is the database password (stored encrypted); empty or absent keeps the stored one. db_host is refused (400) when it is or resolves to a loopback, private, link-local or metadata address not in OUTBOUND_ALLOWED_HOSTS. enabled needs host, user and name. Answers the saved settings.',
        params: ServerParamsSchema,
        body: BackupSettingsBodySchema,
        response: { 200: BackupSettingsSchema, ...OWNER_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      await checkSettingsInput(request.body, deps.outbound);
      const before = await deps.settings.get(serverId);
      const saved = await deps.settings.save(serverId, request.body);
      await deps.scheduler.apply(serverId, before, saved);
      await deps.audit.publish({
        actorId: userIdFromRequest(request) ?? 'unknown',
        serverId,
        action: 'backup.settings-saved',
        details: {
          enabled: saved.enabled,
          interval_hours: saved.intervalHours,
          db_host: saved.host,
          db_port: saved.port,
          db_name: saved.database,
          password_changed: (request.body.db_pass_enc ?? '') !== '',
        },
      });
      return settingsView(saved, await maxBackupsOf(deps.directory, serverId));
    },
  );
}
