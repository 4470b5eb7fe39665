import type { BackupSettings } from '@skald/contracts/api';

// docs/spec/part-1.txt sections 2, 8, as written ('succesfully' included).
export const BACKUP_TEXT = {
  loading: 'Loading backups...',
  loadFailed: 'Failed to load backups',
  saved: 'Backup settings saved',
  saveFailed: 'Failed to save backup settings',
  created: 'Backup created successfully',
  createFailed: 'Failed to create backup',
  downloadFailed: 'Failed to download backup',
  downloadError: 'Error downloading backup',
  deleted: 'Backup deleted succesfully',
  deleteFailed: 'Failed to delete backup',
  securityTip:
    'Security tip: give Skald a database user that can only read: SELECT, SHOW VIEW and TRIGGER on this database (and SELECT on mysql.proc for stored routines on MariaDB before 11). It never needs to write.',
  noBackupsInTier: 'Your plan does not include database backups. Upgrade on the Subscriptions page to enable them.',
  empty: 'No backups yet.',
  noServer: 'Select a server to manage its backups.',
} as const;

/** docs/spec/part-1.txt section 2: sizes in KB with 2 decimals. */
export function sizeKb(bytes: number): string {
  return `${(bytes / 1024).toFixed(2)} KB`;
}

/** docs/spec/part-1.txt section 5: create-backup is offered only when host, user and database name are filled in. */
export function canCreate(settings: Pick<BackupSettings, 'db_host' | 'db_user' | 'db_name'> | undefined): boolean {
  return !!settings && settings.db_host.trim() !== '' && settings.db_user.trim() !== '' && settings.db_name.trim() !== '';
}

export interface SettingsForm {
  enabled: boolean;
  interval_hours: number | string;
  db_host: string;
  db_port: number | string;
  db_user: string;
  db_pass_enc: string;
  db_name: string;
}

export function formValues(settings: BackupSettings): SettingsForm {
  return {
    enabled: settings.enabled,
    interval_hours: settings.interval_hours,
    db_host: settings.db_host,
    db_port: settings.db_port,
    db_user: settings.db_user,
    db_pass_enc: '',
    db_name: settings.db_name,
  };
}

/** The body to send: numbers as numbers, defaults for empty fields (24 h, 3306), the password only when entered. */
export function settingsBody(form: SettingsForm) {
  const interval = Number(form.interval_hours);
  const port = Number(form.db_port);
  return {
    enabled: form.enabled,
    interval_hours: form.interval_hours === '' || !Number.isFinite(interval) ? 24 : interval,
    db_host: form.db_host.trim(),
    db_port: form.db_port === '' || !Number.isFinite(port) ? 3306 : port,
    db_user: form.db_user,
    db_name: form.db_name,
    ...(form.db_pass_enc !== '' ? { db_pass_enc: form.db_pass_enc } : {}),
  };
}
