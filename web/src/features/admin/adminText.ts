/** The admin area's texts, limits and small formatters (docs/spec/part-2.txt sections 2, 5, 8, 9), as written (misspellings included). */

export const ADMIN_TEXT = {
  statsLoading: 'Loading stats...',
  statsError: 'Error loading data',
  usersLoading: 'Loading users...',
  noAccess: 'No access or server error',
  roleUpdated: 'Succesfully updated the user role',
  roleFailed: 'Error updating user role',
  needs2FA: 'User must have 2FA enabled to change role',
  statusUpdated: 'Successfully updated the users status',
  statusFailed: 'Error updating user status',
  serversLoading: 'Loading servers...',
  serverLoading: 'Loading server...',
  serverError: 'Error while getting server details.',
  backupsEmpty: 'No backups available for this server.',
  backupsError: 'Error while getting backups.',
  photosEmpty: 'No photo logs available for this server.',
  photosError: 'Error loading photo logs.',
  logsEmpty: 'No logs match the selected filters.',
  auditEmpty: 'No audit logs available for this server.',
  auditError: 'Error loading audit logs.',
  logsLoading: 'Loading logs...',
  adminLogsEmpty: 'No logs found',
  emailAndRole: 'Email and role are required',
  addFailed: 'Failed to add user',
  addFailedToast: 'Failed to add user to the server',
  added: 'Succesfully added user to the server',
  memberRoleFailed: 'Failed to update role',
  memberRoleFailedToast: 'Failed to change the users role',
  memberRoleChanged: 'Succesfully changed user role',
  removeFailed: 'Failed to remove user',
  removeFailedToast: 'Failed to remove user from the server',
  removed: 'Succesfully removed user from the server',
  removeConfirm: 'Are you sure you want to remove this user?',
  tierFailed: 'Failed to update tier',
  tierFailedToast: 'Updating server tier failed',
  tierUpdated: 'Tier updated succesfully',
} as const;

/** Refresh intervals (docs/spec/part-2.txt section 9). */
export const ADMIN_POLL_MS = { stats: 10_000, users: 20_000, servers: 10_000, serverLogs: 10_000 } as const;

/** The servers list's tier filter (docs/spec/part-2.txt section 2). */
export const TIER_FILTER = ['All', 'free', 'lite', 'starter', 'explorer', 'voyager', 'pioneer', 'pro', 'legend'] as const;

const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** Byte sizes in Bytes, KB, MB, GB, TB (base 1024, 2 decimals; docs/spec/part-2.txt section 9). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** exponent;
  return `${exponent === 0 ? value : value.toFixed(2)} ${UNITS[exponent]}`;
}

const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** A time as the tables show it; a dash when there is none (docs/spec/part-2.txt section 2 'Last login'). */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '-';
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? DATE_TIME.format(ms) : '-';
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '-';
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? DATE.format(ms) : '-';
}

/** Details as text: text as is, an object as JSON (docs/spec/part-2.txt section 3). */
export function detailsText(details: string | Record<string, unknown>): string {
  return typeof details === 'string' ? details : JSON.stringify(details);
}

/** The number of pages of `total` items (at least 1). */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}
