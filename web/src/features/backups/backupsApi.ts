import type { BackupCreated, BackupList, BackupSettings, BackupSettingsBody, MessageAnswer } from '@skald/contracts/api';
import { apiSlice } from '../../app/api.ts';

/** While a backup runs the list refreshes this often, so its status and size appear without a reload. */
export const RUNNING_POLL_MS = 3_000;

/** Saves a downloaded file (a module object so tests can replace it). */
export const fileSaver = {
  save(blob: Blob, name: string): void {
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    // The click has handed the blob to the browser's download; the URL can go on the next turn.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  },
};

/**
 * The download goes through the one API slice (bearer token, renewal on 401). A finished answer is saved
 * as backup-{id}.sql right here, so the file's bytes never enter the store; an error answer is read as
 * JSON like any other.
 */
function saveAs(name: string) {
  return async (response: Response): Promise<unknown> => {
    if (!response.ok) return response.json().catch(() => null);
    fileSaver.save(await response.blob(), name);
    return null;
  };
}

const path = (serverId: string) => `/backups/${encodeURIComponent(serverId)}`;

export const backupsApi = apiSlice.enhanceEndpoints({ addTagTypes: ['Backups', 'BackupSettings'] }).injectEndpoints({
  endpoints: (build) => ({
    backups: build.query<BackupList, string>({
      query: (serverId) => path(serverId),
      providesTags: (_r, _e, serverId) => [{ type: 'Backups', id: serverId }],
    }),
    backupSettings: build.query<BackupSettings, string>({
      query: (serverId) => `${path(serverId)}/settings`,
      providesTags: (_r, _e, serverId) => [{ type: 'BackupSettings', id: serverId }],
    }),
    saveBackupSettings: build.mutation<BackupSettings, { serverId: string; body: BackupSettingsBody }>({
      query: ({ serverId, body }) => ({ url: `${path(serverId)}/settings`, method: 'POST', body }),
      invalidatesTags: (_r, _e, { serverId }) => [{ type: 'BackupSettings', id: serverId }],
    }),
    createBackup: build.mutation<BackupCreated, string>({
      query: (serverId) => ({ url: `${path(serverId)}/create`, method: 'POST' }),
      invalidatesTags: (_r, _e, serverId) => [{ type: 'Backups', id: serverId }],
    }),
    downloadBackup: build.mutation<null, { serverId: string; backupId: string }>({
      query: ({ serverId, backupId }) => ({
        url: `${path(serverId)}/download/${encodeURIComponent(backupId)}`,
        responseHandler: saveAs(`backup-${backupId}.sql`),
        cache: 'no-store',
      }),
    }),
    deleteBackup: build.mutation<MessageAnswer, { serverId: string; backupId: string }>({
      query: ({ serverId, backupId }) => ({ url: `${path(serverId)}/${encodeURIComponent(backupId)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { serverId }) => [{ type: 'Backups', id: serverId }],
    }),
  }),
});

export const {
  useBackupsQuery,
  useBackupSettingsQuery,
  useSaveBackupSettingsMutation,
  useCreateBackupMutation,
  useDownloadBackupMutation,
  useDeleteBackupMutation,
} = backupsApi;
