import type { AdminServerSummary } from '@skald/contracts/api';
import { Input } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { FilterSelect } from '../common/FilterSelect.tsx';
import { ScrollTable } from '../common/ScrollTable.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';
import { AdminQueryView } from './AdminQueryView.tsx';
import { useAdminServersQuery } from './adminApi.ts';
import { ADMIN_POLL_MS, ADMIN_TEXT, TIER_FILTER, formatBytes, formatDate } from './adminText.ts';

export interface ServerFilters {
  readonly tier: (typeof TIER_FILTER)[number];
  readonly search: string;
  /** In the logic, with no visible input (docs/spec/part-2.txt section 2). */
  readonly minUsers: number;
}

/** Tier equality, case-insensitive name contains, at least minUsers users. */
export function filterServers(servers: readonly AdminServerSummary[], filters: ServerFilters): AdminServerSummary[] {
  const needle = filters.search.trim().toLowerCase();
  return servers.filter(
    (s) => (filters.tier === 'All' || s.tier === filters.tier) && (needle === '' || s.name.toLowerCase().includes(needle)) && s.userCount >= filters.minUsers,
  );
}

/** Staff servers list (docs/spec/part-2.txt section 2 Admin servers list): filters, counts, status; refreshed every 10 s. */
export default function AdminServersPage() {
  const { data, isLoading, isError } = useAdminServersQuery(undefined, { pollingInterval: ADMIN_POLL_MS.servers, skipPollingIfUnfocused: true });
  const [tier, setTier] = useState<ServerFilters['tier']>('All');
  const [search, setSearch] = useState('');
  const rows = data ? filterServers(data.servers, { tier, search, minUsers: 0 }) : [];
  return (
    <div className="page">
      <PageTitle>Servers</PageTitle>
      <div className="audit-filters">
        <FilterSelect id="admin-tier-filter" label="Tier" value={tier} options={TIER_FILTER} onChange={(v) => setTier(v as ServerFilters['tier'])} />
        <div className="filter-field">
          <label className="field-label" htmlFor="admin-server-search">
            Search by name
          </label>
          <Input id="admin-server-search" value={search} onChange={(e) => setSearch(e.target.value)} allowClear />
        </div>
      </div>
      <AdminQueryView data={data} isLoading={isLoading} isError={isError} loadingText={ADMIN_TEXT.serversLoading}>
        {() => (
          <ScrollTable label="Servers table" caption="Servers" className="audit-table admin-table" head={['Name', 'Tier', 'Users', 'Logs', 'Photo Logs', 'Audit Logs', 'DB Backups', 'Status', 'Created on']}>
            {rows.map((s) => (
              <tr key={s.id} data-testid="admin-server-row" className={s.is_suspended ? 'admin-row-suspended' : undefined}>
                <td>
                  <Link to={`/admin/servers/${encodeURIComponent(s.id)}`}>{s.name}</Link>
                </td>
                <td>{s.tier}</td>
                <td>{s.userCount}</td>
                <td>{s.logCount.toLocaleString()}</td>
                <td>{s.photoLogCount}</td>
                <td>{s.auditLogCount}</td>
                <td>
                  {s.backupCount} / {formatBytes(s.totalBackupSize)}
                </td>
                <td>{s.is_suspended ? 'Suspended' : 'Active'}</td>
                <td>{formatDate(s.created_at)}</td>
              </tr>
            ))}
          </ScrollTable>
        )}
      </AdminQueryView>
    </div>
  );
}
