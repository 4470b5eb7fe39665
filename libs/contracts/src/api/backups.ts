/**
 * HTTP answer and body shapes of the backups service (docs/spec/part-1.txt sections 3, 5, 7): a server's game
 * database backups and its backup settings. Field names are the spec's (snake_case, `db_pass_enc` for the
 * password the client sends). The password itself is never answered: settings say `has_password`.
 */
import Type from 'typebox';
import type { Static } from 'typebox';

/** Defaults and bounds (docs/spec/part-1.txt sections 5, 9): interval 24 h and at least 1, port 3306. */
export const BACKUP_DEFAULT_INTERVAL_HOURS = 24;
export const BACKUP_MIN_INTERVAL_HOURS = 1;
/** A year: a longer interval is a typo, not a schedule. */
export const BACKUP_MAX_INTERVAL_HOURS = 8760;
export const BACKUP_DEFAULT_PORT = 3306;

export const BackupStatusSchema = Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]);
export type BackupStatus = Static<typeof BackupStatusSchema>;

/** One backup as GET /backups/{serverId} lists it, newest first. */
export const ApiBackupSchema = Type.Object(
  {
    id: Type.String(),
    /** Bytes of the SQL file as downloaded (uncompressed); 0 while running or after a failure. */
    size: Type.Integer({ minimum: 0 }),
    /** ISO 8601 UTC time the run started. */
    created_at: Type.String({ format: 'date-time' }),
    status: BackupStatusSchema,
    /** Why a failed run failed (never a password or a raw driver message); null otherwise. */
    error: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type ApiBackup = Static<typeof ApiBackupSchema>;

export const BackupListSchema = Type.Array(ApiBackupSchema);
export type BackupList = Static<typeof BackupListSchema>;

/** GET (and the answer of POST) /backups/{serverId}/settings. */
export const BackupSettingsSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    interval_hours: Type.Number(),
    db_host: Type.String(),
    db_port: Type.Integer(),
    db_user: Type.String(),
    db_name: Type.String(),
    /** The tier's number of backups kept (0: the tier has none). */
    maxBackups: Type.Integer(),
    /** Whether a database password is stored (the password is never sent back). */
    has_password: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type BackupSettings = Static<typeof BackupSettingsSchema>;

/**
 * POST /backups/{serverId}/settings body. `db_pass_enc` is the database password in clear over TLS (the
 * spec's name; the service encrypts it at rest): empty or absent keeps the stored one. Saving does not
 * contact the database.
 */
export const BackupSettingsBodySchema = Type.Object(
  {
    enabled: Type.Boolean(),
    interval_hours: Type.Number({ minimum: BACKUP_MIN_INTERVAL_HOURS, maximum: BACKUP_MAX_INTERVAL_HOURS }),
    db_host: Type.String({ maxLength: 253 }),
    db_port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
    db_user: Type.String({ maxLength: 80 }),
    db_pass_enc: Type.Optional(Type.String({ maxLength: 1024 })),
    db_name: Type.String({ maxLength: 64 }),
  },
  { additionalProperties: false },
);
export type BackupSettingsBody = Static<typeof BackupSettingsBodySchema>;

/** POST /backups/{serverId}/create answers 202 with the run it started. */
export const BackupCreatedSchema = Type.Object(
  { id: Type.String(), status: BackupStatusSchema },
  { additionalProperties: false },
);
export type BackupCreated = Static<typeof BackupCreatedSchema>;
