import { Alert, Spin } from 'antd';
import { useAdminServerBackupsQuery } from '../adminApi.ts';
import { ADMIN_TEXT, formatBytes, formatDateTime } from '../adminText.ts';

/** Database Backups tab (docs/spec/part-2.txt section 2): total count and size, the backups. */
export function BackupsTab({ id }: { id: string }) {
  const { data, isLoading, isError } = useAdminServerBackupsQuery(id);
  if (isLoading) return <Spin />;
  if (isError || !data) return <Alert type="error" title={ADMIN_TEXT.backupsError} showIcon />;
  if (data.backups.length === 0) return <p className="muted">{ADMIN_TEXT.backupsEmpty}</p>;
  const total = data.backups.reduce((n, b) => n + b.size, 0);
  return (
    <div>
      <p data-testid="admin-backup-totals">
        {data.backups.length} backups, {formatBytes(total)} in total
      </p>
      <ul className="admin-plain-list">
        {data.backups.map((b) => (
          <li key={b.id}>
            {formatDateTime(b.created_at)}: {formatBytes(b.size)}
          </li>
        ))}
      </ul>
    </div>
  );
}
