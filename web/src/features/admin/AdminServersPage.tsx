import type { AdminServerSummary } from '@skald/contracts/api';
import { Alert, Input, Space, Spin } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '../shell/PageTitle.tsx';
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
        <div className="filter-field">
          <label className="field-label" htmlFor="admin-tier-filter">
            Tier
          </label>
          <select id="admin-tier-filter" className="native-select" value={tier} onChange={(e) => setTier(e.target.value as ServerFilters['tier'])}>
            {TIER_FILTER.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div className="filter-field">
          <label className="field-label" htmlFor="admin-server-search">
            Search by name
          </label>
          <Input id="admin-server-search" value={search} onChange={(e) => setSearch(e.target.value)} allowClear />
        </div>
      </div>
      {isLoading ? (
        <Space role="status">
          <Spin /> <span>{ADMIN_TEXT.serversLoading}</span>
        </Space>
      ) : isError || !data ? (
        <Alert type="error" title={ADMIN_TEXT.noAccess} showIcon />
      ) : (
        <div className="table-scroll" role="region" aria-label="Servers table" tabIndex={0}>
          <table className="audit-table admin-table">
            <caption className="sr-only">Servers</caption>
            <thead>
              <tr>
                {['Name', 'Tier', 'Users', 'Logs', 'Photo Logs', 'Audit Logs', 'DB Backups', 'Status', 'Created on'].map((h) => (
                  <th scope="col" key={h}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
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
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
