import { ADMIN_LOGS_PAGE_SIZE, type AdminServerLogs } from '@skald/contracts/api';
import { Alert, Spin } from 'antd';
import { useMemo, useState } from 'react';
import { FilterSelect } from '../../common/FilterSelect.tsx';
import { Pager } from '../../common/Pager.tsx';
import { useAdminServerLogsQuery } from '../adminApi.ts';
import { ADMIN_POLL_MS, ADMIN_TEXT, formatDateTime, pageCount } from '../adminText.ts';

type Log = AdminServerLogs['logs'][number];
const LEVELS = ['all', 'info', 'warn', 'error'] as const;

function distinct(logs: readonly Log[], pick: (l: Log) => string): string[] {
  return [...new Set(logs.map(pick))].sort((a, b) => a.localeCompare(b));
}

/** Logs tab (docs/spec/part-2.txt sections 2, 9): level, type and resource filters from the data, client-side pages of 50; refreshed every 10 s. */
export function LogsTab({ id }: { id: string }) {
  const { data, isLoading, isError } = useAdminServerLogsQuery(id, { pollingInterval: ADMIN_POLL_MS.serverLogs, skipPollingIfUnfocused: true });
  const [level, setLevel] = useState<string>('all');
  const [type, setType] = useState('all');
  const [resource, setResource] = useState('all');
  const [page, setPage] = useState(1);
  const logs = useMemo(() => data?.logs ?? [], [data]);
  const filtered = logs.filter((l) => (level === 'all' || l.level === level) && (type === 'all' || l.type === type) && (resource === 'all' || l.resource === resource));
  const pages = pageCount(filtered.length, ADMIN_LOGS_PAGE_SIZE);
  const current = Math.min(page, pages);
  const shown = filtered.slice((current - 1) * ADMIN_LOGS_PAGE_SIZE, current * ADMIN_LOGS_PAGE_SIZE);
  const set = (setter: (v: string) => void) => (v: string) => {
    setter(v);
    setPage(1);
  };

  if (isLoading) return <Spin />;
  if (isError || !data) return <Alert type="error" title={ADMIN_TEXT.serverError} showIcon />;
  return (
    <div>
      <div className="audit-filters">
        <FilterSelect id="admin-log-level" label="Level" value={level} options={LEVELS} onChange={set(setLevel)} />
        <FilterSelect id="admin-log-type" label="Type" value={type} options={['all', ...distinct(logs, (l) => l.type)]} onChange={set(setType)} />
        <FilterSelect id="admin-log-resource" label="Resource" value={resource} options={['all', ...distinct(logs, (l) => l.resource)]} onChange={set(setResource)} />
      </div>
      {shown.length === 0 ? (
        <p className="muted">{ADMIN_TEXT.logsEmpty}</p>
      ) : (
        <ul className="admin-plain-list">
          {shown.map((l) => (
            <li key={l.id} data-testid="admin-log-entry">
              <strong>{l.level}</strong> <time dateTime={l.created_at}>{formatDateTime(l.created_at)}</time> <span>{l.type}</span> <span>{l.resource}</span>
              <div>{l.message}</div>
              {l.metadata && (
                <details>
                  <summary>View metadata</summary>
                  <pre className="audit-details">{JSON.stringify(l.metadata, null, 2)}</pre>
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
      <Pager page={current} pages={pages} previousLabel="Prev" separator="of" onPage={setPage} />
    </div>
  );
}
