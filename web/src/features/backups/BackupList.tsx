import type { ApiBackup } from '@skald/contracts/api';
import { Button, Empty, Space } from 'antd';
import { BACKUP_TEXT, sizeKb } from './backupView.ts';

interface Props {
  backups: readonly ApiBackup[];
  /** The id of the backup a download or delete is running for. */
  busyId: string | null;
  onDownload(backup: ApiBackup): void;
  onDelete(backup: ApiBackup): void;
}

// Status as words in the text colour: antd's coloured tags and danger buttons read below 4.5:1 (WCAG AA).
const STATUS_TEXT = { running: 'Running…', done: 'Done', failed: 'Failed' } as const;

function when(iso: string): string {
  return new Date(iso).toLocaleString();
}

// The backup list with download and delete per row (docs/spec/part-1.txt section 2); sizes in KB with 2 decimals.
export function BackupList({ backups, busyId, onDownload, onDelete }: Props) {
  if (backups.length === 0) return <Empty description={BACKUP_TEXT.empty} />;
  return (
    <ul className="backup-list" aria-label="Backups">
      {backups.map((backup) => (
        <li key={backup.id} className="backup-row" data-testid="backup-row" data-status={backup.status}>
          <div className="backup-facts">
            <span className="backup-time">{when(backup.created_at)}</span>
            <span className="backup-size">{sizeKb(backup.size)}</span>
            <span className="backup-status">{STATUS_TEXT[backup.status]}</span>
            {backup.error && <span className="backup-error">{backup.error}</span>}
          </div>
          <Space>
            <Button onClick={() => onDownload(backup)} disabled={backup.status !== 'done' || busyId !== null} loading={busyId === backup.id} aria-label={`Download backup of ${when(backup.created_at)}`}>
              Download
            </Button>
            <Button onClick={() => onDelete(backup)} disabled={backup.status === 'running' || busyId !== null} aria-label={`Delete backup of ${when(backup.created_at)}`}>
              Delete
            </Button>
          </Space>
        </li>
      ))}
    </ul>
  );
}
