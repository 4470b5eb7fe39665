import type { AdminLogEntry } from '@skald/contracts/api';
import { useState } from 'react';
import { FilterSelect } from '../common/FilterSelect.tsx';
import { ScrollTable } from '../common/ScrollTable.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';
import { AdminQueryView } from './AdminQueryView.tsx';
import { useAdminLogsQuery } from './adminApi.ts';
import { ADMIN_TEXT, detailsText, formatDateTime } from './adminText.ts';

interface Filters {
  readonly user: string;
  readonly server: string;
  readonly action: string;
}

const serverOf = (l: AdminLogEntry) => l.server_name ?? '';

export function matches(l: AdminLogEntry, f: Filters, skip?: keyof Filters): boolean {
  return (skip === 'user' || f.user === '' || l.admin_email === f.user) && (skip === 'server' || f.server === '' || serverOf(l) === f.server) && (skip === 'action' || f.action === '' || l.action === f.action);
}

/** A filter's options narrow to the values present in the logs the OTHER filters leave (docs/spec/part-2.txt section 2). */
export function optionsOf(logs: readonly AdminLogEntry[], f: Filters, which: keyof Filters, pick: (l: AdminLogEntry) => string): string[] {
  return [...new Set(logs.filter((l) => matches(l, f, which)).map(pick).filter((v) => v !== ''))].sort((a, b) => a.localeCompare(b));
}

/** Staff actions (docs/spec/part-2.txt section 2 Admin logs page): superadmin only; filters on the client. */
export default function AdminLogsPage() {
  const { data, isLoading, isError } = useAdminLogsQuery(undefined);
  const [filters, setFilters] = useState<Filters>({ user: '', server: '', action: '' });
  const logs = data?.logs ?? [];
  const shown = logs.filter((l) => matches(l, filters));
  const select = (which: keyof Filters, label: string, pick: (l: AdminLogEntry) => string) => (
    <FilterSelect
      id={`admin-logs-${which}`}
      label={label}
      value={filters[which]}
      options={[{ value: '', label: 'All' }, ...optionsOf(logs, filters, which, pick)]}
      onChange={(value) => setFilters({ ...filters, [which]: value })}
    />
  );
  return (
    <div className="page">
      <PageTitle>Admin Logs</PageTitle>
      <div className="audit-filters">
        {select('user', 'User', (l) => l.admin_email)}
        {select('server', 'Server', serverOf)}
        {select('action', 'Action', (l) => l.action)}
      </div>
      <AdminQueryView data={data} isLoading={isLoading} isError={isError} loadingText={ADMIN_TEXT.logsLoading}>
        {() => (
          <ScrollTable label="Admin logs table" caption="Admin logs" className="audit-table" head={['ID', 'Admin', 'Server', 'Action', 'Details', 'Timestamp']}>
            {shown.length === 0 ? (
              <tr>
                <td colSpan={6} className="audit-empty">
                  {ADMIN_TEXT.adminLogsEmpty}
                </td>
              </tr>
            ) : (
              shown.map((l) => (
                <tr key={l.id} data-testid="admin-log-row">
                  <td className="audit-id">{l.id}</td>
                  <td>{l.admin_email || l.admin_user_id}</td>
                  <td>{l.server_name ?? '-'}</td>
                  <td>{l.action}</td>
                  <td className="audit-details">{detailsText(l.details)}</td>
                  <td>{formatDateTime(l.created_at)}</td>
                </tr>
              ))
            )}
          </ScrollTable>
        )}
      </AdminQueryView>
    </div>
  );
}
