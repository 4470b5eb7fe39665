import { AUDIT_PAGE_SIZE, SERVER_AUDIT_ACTIONS, STAFF_AUDIT_ACTIONS } from '@skald/contracts/api';
import { Alert, Empty, Space, Spin } from 'antd';
import { useState } from 'react';
import { useAppSelector } from '../../app/hooks.ts';
import { FilterSelect } from '../common/FilterSelect.tsx';
import { Panel } from '../common/Panel.tsx';
import { ScrollTable } from '../common/ScrollTable.tsx';
import { Pager } from '../common/Pager.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';
import { detailsText, useAuditLogsQuery } from './auditApi.ts';

// docs/spec/part-2.txt sections 2, 8, as written.
export const AUDIT_TEXT = {
  loading: 'Loading audit logs...',
  empty: 'No logs found',
  noServer: 'Please select a server to view its audit logs.',
  failed: 'Failed to gather information.',
} as const;

/** The actions a server's trail can hold, for the Action filter. */
const ACTIONS = [...SERVER_AUDIT_ACTIONS, ...STAFF_AUDIT_ACTIONS.filter((a) => a.startsWith('staff.'))];

const TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export default function AuditLogsPage() {
  const { serverId, serverName } = useAppSelector((s) => s.session);
  const [user, setUser] = useState('');
  const [action, setAction] = useState('');
  const [page, setPage] = useState(1);
  const query = useAuditLogsQuery({ serverId: serverId ?? '', user, action, page, pageSize: AUDIT_PAGE_SIZE }, { skip: !serverId });

  if (!serverId) {
    return (
      <div className="page">
        <PageTitle>Audit Logs</PageTitle>
        <Empty description={AUDIT_TEXT.noServer} />
      </div>
    );
  }

  const data = query.currentData;
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / AUDIT_PAGE_SIZE));
  const filter = (set: (value: string) => void) => (value: string) => {
    set(value);
    setPage(1);
  };

  return (
    <div className="page">
      <PageTitle>Audit Logs – {serverName}</PageTitle>
      <Panel>
        <div className="audit-filters">
          <FilterSelect
            id="audit-user"
            label="User"
            value={user}
            options={[{ value: '', label: 'All users' }, ...(data?.users ?? query.data?.users ?? []).map((u) => ({ value: u.id, label: u.email || u.id }))]}
            onChange={filter(setUser)}
          />
          <FilterSelect id="audit-action" label="Action" value={action} options={[{ value: '', label: 'All actions' }, ...ACTIONS.map((a) => ({ value: a, label: a }))]} onChange={filter(setAction)} />
        </div>
      </Panel>
      {query.isError ? (
        <Alert type="error" title={AUDIT_TEXT.failed} showIcon />
      ) : !data ? (
        <Space role="status">
          <Spin /> <span>{AUDIT_TEXT.loading}</span>
        </Space>
      ) : (
        <>
          <ScrollTable label="Audit logs table" caption={<>Audit logs of {serverName}</>} className="audit-table" head={['ID', 'User', 'Action', 'Details', 'Timestamp']}>
            {data.logs.length === 0 ? (
              <tr>
                <td colSpan={5} className="audit-empty">
                  {AUDIT_TEXT.empty}
                </td>
              </tr>
            ) : (
              data.logs.map((entry) => (
                <tr key={entry.id} data-testid="audit-row">
                  <td className="audit-id">{entry.id}</td>
                  <td>{entry.user_email || entry.user_id}</td>
                  <td>{entry.action}</td>
                  <td className="audit-details">{detailsText(entry.details)}</td>
                  <td>
                    <time dateTime={entry.created_at}>{TIME.format(new Date(entry.created_at))}</time>
                  </td>
                </tr>
              ))
            )}
          </ScrollTable>
          <Pager page={page} pages={pages} onPage={setPage} />
        </>
      )}
    </div>
  );
}
