/** Request and error-answer schemas shared by the backups route files (answer bodies are in @skald/contracts). */
import Type from 'typebox';
import { ErrorBodySchema } from '@skald/contracts';

const ServerIdSchema = Type.String({ minLength: 1, maxLength: 64 });

export const ServerParamsSchema = Type.Object({ serverId: ServerIdSchema }, { additionalProperties: false });

export const BackupParamsSchema = Type.Object(
  { serverId: ServerIdSchema, backupId: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

/**
 * Refusals of a route guarded by requireServerRole(directory, 'owner') (docs/spec/part-1.txt section 6: only the owner sees
 * DB Backups): 400 a refused parameter, 401 no valid token, 403 a member below owner, 404 another tenant's
 * or an unknown server.
 */
export const OWNER_ERRORS = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema } as const;
