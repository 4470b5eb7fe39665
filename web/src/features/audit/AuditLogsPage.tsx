import { AUDIT_PAGE_SIZE, SERVER_AUDIT_ACTIONS, STAFF_AUDIT_ACTIONS } from '@skald/contracts/api';
import { Alert, Empty, Space, Spin } from 'antd';
import { useState } from 'react';
import { useAppSelector } from '../../app/hooks.ts';
import { Panel } from '../common/Panel.tsx';
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

function FilterSelect({ id, label, value, options, onChange }: { id: string; label: string; value: string; options: readonly { value: string; label: string }[]; onChange(value: string): void }) {
  return (
    <div className="filter-field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="native-select" value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

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
          {/* Focusable so keyboard users can scroll the table sideways on a narrow screen. */}
          <div className="table-scroll" role="region" aria-label="Audit logs table" tabIndex={0}>
            <table className="audit-table">
              <caption className="sr-only">Audit logs of {serverName}</caption>
              <thead>
                <tr>
                  <th scope="col">ID</th>
                  <th scope="col">User</th>
                  <th scope="col">Action</th>
                  <th scope="col">Details</th>
                  <th scope="col">Timestamp</th>
                </tr>
              </thead>
              <tbody>
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
              </tbody>
            </table>
          </div>
          <Pager page={page} pages={pages} onPage={setPage} />
        </>
      )}
    </div>
  );
}
