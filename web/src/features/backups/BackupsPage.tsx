import type { ApiBackup } from '@skald/contracts/api';
import { Alert, Button, Empty, Space, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { errorText, statusOf } from '../../app/errors.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useToast } from '../../app/toast.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';
import { BackupList } from './BackupList.tsx';
import { BackupSettingsPanel } from './BackupSettingsPanel.tsx';
import {
  RUNNING_POLL_MS,
  useBackupSettingsQuery,
  useBackupsQuery,
  useCreateBackupMutation,
  useDeleteBackupMutation,
  useDownloadBackupMutation,
  useSaveBackupSettingsMutation,
} from './backupsApi.ts';
import { BACKUP_TEXT, canCreate } from './backupView.ts';

export default function BackupsPage() {
  const { serverId, serverName } = useAppSelector((s) => s.session);
  const toast = useToast();
  const [running, setRunning] = useState(false);
  const list = useBackupsQuery(serverId ?? '', { skip: !serverId, pollingInterval: running ? RUNNING_POLL_MS : 0 });
  const settings = useBackupSettingsQuery(serverId ?? '', { skip: !serverId });
  const [save, saving] = useSaveBackupSettingsMutation();
  const [create, creating] = useCreateBackupMutation();
  const [download] = useDownloadBackupMutation();
  const [remove] = useDeleteBackupMutation();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);

  const anyRunning = (list.data ?? []).some((b) => b.status === 'running');
  // Poll only while a run is in progress; a finished list stays as it is.
  useEffect(() => setRunning(anyRunning), [anyRunning]);
  // Another server's refusal is not this one's.
  useEffect(() => setSaveError(null), [serverId]);

  if (!serverId) {
    return (
      <div className="page">
        <PageTitle>DB Backups</PageTitle>
        <Empty description={BACKUP_TEXT.noServer} />
      </div>
    );
  }

  const onSave = async (body: Parameters<typeof save>[0]['body']) => {
    setSaveError(null);
    try {
      await save({ serverId, body }).unwrap();
      toast.success(BACKUP_TEXT.saved);
      return true;
    } catch (err) {
      toast.error(BACKUP_TEXT.saveFailed);
      // The toast is the spec's; the reason (a refused field, an internal host) shows under the form.
      setSaveError(errorText(err, '') || null);
      return false;
    }
  };

  const onCreate = async () => {
    try {
      await create(serverId).unwrap();
      toast.success(BACKUP_TEXT.created);
    } catch {
      toast.error(BACKUP_TEXT.createFailed);
    }
  };

  const onDownload = async (backup: ApiBackup) => {
    setBusyId(backup.id);
    try {
      await download({ serverId, backupId: backup.id }).unwrap();
    } catch (err) {
      // An answer from the server (404, 403) failed the download; no answer at all is an error on the way.
      toast.error(typeof statusOf(err) === 'number' ? BACKUP_TEXT.downloadFailed : BACKUP_TEXT.downloadError);
    } finally {
      setBusyId(null);
    }
  };

  const onDelete = async (backup: ApiBackup) => {
    setBusyId(backup.id);
    try {
      await remove({ serverId, backupId: backup.id }).unwrap();
      toast.success(BACKUP_TEXT.deleted);
    } catch {
      toast.error(BACKUP_TEXT.deleteFailed);
    } finally {
      setBusyId(null);
    }
  };

  const current = settings.data;
  const inTier = !current || current.maxBackups > 0;
  const busy = creating.isLoading || saving.isLoading || anyRunning;

  return (
    <div className="page">
      <PageTitle>DB Backups – {serverName}</PageTitle>
      {!inTier && <Alert type="warning" title={BACKUP_TEXT.noBackupsInTier} showIcon data-testid="backups-not-in-tier" />}
      <Alert type="info" title={BACKUP_TEXT.securityTip} showIcon data-testid="security-tip" />
      {current && <BackupSettingsPanel settings={current} saving={saving.isLoading} onSave={onSave} error={saveError} />}
      {current && canCreate(current) && inTier && (
        <Space>
          <Button type="primary" onClick={() => void onCreate()} loading={creating.isLoading} disabled={busy}>
            Create Backup Now
          </Button>
          {current.maxBackups > 0 && <span className="count-line">{`${(list.data ?? []).filter((b) => b.status === 'done').length} / ${current.maxBackups} backups kept`}</span>}
        </Space>
      )}
      <section aria-labelledby="backup-list-title">
        <h2 id="backup-list-title" className="section-title">
          Backups
        </h2>
        {list.isError ? (
          <Alert type="error" title={BACKUP_TEXT.loadFailed} showIcon />
        ) : !list.data ? (
          <Space>
            <Spin /> <span>{BACKUP_TEXT.loading}</span>
          </Space>
        ) : (
          <BackupList backups={list.data} busyId={busyId} onDownload={(b) => void onDownload(b)} onDelete={(b) => void onDelete(b)} />
        )}
      </section>
    </div>
  );
}
