/**
 * A server's backup settings (docs/spec/part-1.txt sections 3, 5): the database to dump and the schedule. The password is
 * sealed with the service kit's secret box (AES-256-GCM under the secrets key, bound to the server, so a
 * sealed value copied to another server's settings does not open) and never leaves this module in an
 * answer: the view says `has_password`.
 */
import { BACKUP_DEFAULT_INTERVAL_HOURS, BACKUP_DEFAULT_PORT } from '@skald/contracts';
import type { BackupSettings, BackupSettingsBody } from '@skald/contracts';
import type { BaseDocument, Collection, DocumentStore } from '@skald/ports';
import type { SecretBox } from '@skald/service-kit';

export interface SettingsDocument extends BaseDocument {
  readonly enabled: boolean;
  readonly intervalHours: number;
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly database: string;
  /** secret-box text, or null when no password was ever entered. */
  readonly passwordSealed: string | null;
  readonly updatedAt: number;
}

export type StoredSettings = Omit<SettingsDocument, '_id' | 'updatedAt'>;

export const DEFAULT_SETTINGS: StoredSettings = {
  enabled: false,
  intervalHours: BACKUP_DEFAULT_INTERVAL_HOURS,
  host: '',
  port: BACKUP_DEFAULT_PORT,
  user: '',
  database: '',
  passwordSealed: null,
};

/** docs/spec/part-1.txt section 5: create-backup is offered only when host, user and database name are filled in. */
export function isComplete(settings: Pick<StoredSettings, 'host' | 'user' | 'database'>): boolean {
  return settings.host !== '' && settings.user !== '' && settings.database !== '';
}

export function settingsView(settings: StoredSettings, maxBackups: number): BackupSettings {
  return {
    enabled: settings.enabled,
    interval_hours: settings.intervalHours,
    db_host: settings.host,
    db_port: settings.port,
    db_user: settings.user,
    db_name: settings.database,
    maxBackups,
    has_password: settings.passwordSealed !== null,
  };
}

function passwordPurpose(serverId: string): string {
  return `backups.db-password:${serverId}`;
}

export interface BackupSettingsRepository {
  get(serverId: string): Promise<StoredSettings>;
  /** Stores the body; an empty or absent password keeps the stored one. Answers the stored settings. */
  save(serverId: string, body: BackupSettingsBody): Promise<StoredSettings>;
  /** The password in clear, for a run only ('' when none was entered). */
  passwordOf(serverId: string, settings: StoredSettings): string;
  /** Servers with scheduled backups switched on (schedules are rebuilt from them at start). */
  enabledServers(): Promise<{ serverId: string; intervalHours: number }[]>;
  remove(serverId: string): Promise<void>;
}

export async function createBackupSettingsRepository(docs: DocumentStore, box: SecretBox, now: () => number): Promise<BackupSettingsRepository> {
  const collection: Collection<SettingsDocument> = await docs.collection<SettingsDocument>('backup_settings', [{ fields: ['enabled'] }]);
  const strip = ({ _id, updatedAt, ...settings }: SettingsDocument): StoredSettings => {
    void _id;
    void updatedAt;
    return settings;
  };
  return {
    async get(serverId) {
      const doc = await collection.findOne({ _id: serverId });
      return doc ? strip(doc) : DEFAULT_SETTINGS;
    },
    async save(serverId, body) {
      const current = await collection.findOne({ _id: serverId });
      const password = body.db_pass_enc ?? '';
      const next: StoredSettings = {
        enabled: body.enabled,
        intervalHours: body.interval_hours,
        host: body.db_host.trim(),
        port: body.db_port ?? BACKUP_DEFAULT_PORT,
        user: body.db_user,
        database: body.db_name,
        passwordSealed: password === '' ? (current?.passwordSealed ?? null) : box.seal(password, passwordPurpose(serverId)),
      };
      await collection.updateOne({ _id: serverId }, { $set: { ...next, updatedAt: now() } }, { upsert: true });
      return next;
    },
    passwordOf(serverId, settings) {
      return settings.passwordSealed === null ? '' : box.open(settings.passwordSealed, passwordPurpose(serverId));
    },
    async enabledServers() {
      return (await collection.find({ enabled: true })).map((doc) => ({ serverId: doc._id, intervalHours: doc.intervalHours }));
    },
    async remove(serverId) {
      await collection.deleteOne({ _id: serverId });
    },
  };
}
