import { Alert, Button, Space, Spin } from 'antd';
import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { useToast } from '../../app/toast.tsx';
import { useMeQuery } from '../auth/authApi.ts';
import { Panel } from '../common/Panel.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';
import { useAdminServerQuery, useAdminTiersQuery, useSetServerSuspendedMutation, useSetServerTierMutation } from './adminApi.ts';
import { canManageServers, canSuspend } from './adminNav.ts';
import { ADMIN_POLL_MS, ADMIN_TEXT, formatDate } from './adminText.ts';
import { AuditTab } from './tabs/AuditTab.tsx';
import { BackupsTab } from './tabs/BackupsTab.tsx';
import { LogsTab } from './tabs/LogsTab.tsx';
import { MembersTab } from './tabs/MembersTab.tsx';
import { PhotosTab } from './tabs/PhotosTab.tsx';
import { ServerTabs } from './tabs/ServerTabs.tsx';

/** The Actions card: tier (admin, superadmin) and the suspend toggle (superadmin) (docs/spec/part-2.txt sections 2, 4, 6, 8). */
function ServerActions({ id, tier, suspended }: { id: string; tier: string; suspended: boolean }) {
  const toast = useToast();
  const { data: me } = useMeQuery(undefined);
  const { data: tiers } = useAdminTiersQuery(undefined);
  const [setTier, tierCall] = useSetServerTierMutation();
  const [setSuspended, suspendCall] = useSetServerSuspendedMutation();
  const [tierError, setTierError] = useState<string | null>(null);
  const role = me?.user.role;

  const changeTier = async (next: string) => {
    if (next === tier) return;
    setTierError(null);
    try {
      await setTier({ id, tier: next }).unwrap();
      toast.success(ADMIN_TEXT.tierUpdated);
    } catch {
      setTierError(ADMIN_TEXT.tierFailed);
      toast.error(ADMIN_TEXT.tierFailedToast);
    }
  };
  // Sends the opposite of the current state; a failure is only logged (docs/spec/part-2.txt sections 4, 8).
  const toggleSuspension = async () => {
    try {
      await setSuspended({ id, suspended: !suspended }).unwrap();
    } catch (err) {
      console.error('Suspension toggle failed', err);
    }
  };

  if (!canManageServers(role)) return null;
  return (
    <Panel title="Actions">
      <Space wrap align="center">
        <label className="field-label" htmlFor="admin-server-tier">
          Tier
        </label>
        <select id="admin-server-tier" className="native-select" value={tier} disabled={tierCall.isLoading} onChange={(e) => void changeTier(e.target.value)}>
          {(tiers?.tiers ?? [{ key: tier, label: tier }]).map((t) => (
            <option key={t.key} value={t.key}>
              {t.label}
            </option>
          ))}
        </select>
        {canSuspend(role) && (
          <Button loading={suspendCall.isLoading} onClick={() => void toggleSuspension()}>
            {suspended ? 'Unsuspend server' : 'Suspend server'}
          </Button>
        )}
      </Space>
      {tierError && <Alert type="error" title={tierError} showIcon className="admin-inline-error" />}
    </Panel>
  );
}

/** Staff server detail (docs/spec/part-2.txt section 2): summary, actions and the Users, Database Backups, Photo Logs, Logs and Audit Logs tabs. */
export default function AdminServerPage() {
  const { id = '' } = useParams();
  // Polled like the list (10 s): a tier or suspension change shows its new limits once the read model has it.
  const { data: server, isLoading, isError } = useAdminServerQuery(id, { skip: id === '', pollingInterval: ADMIN_POLL_MS.servers, skipPollingIfUnfocused: true });
  if (isLoading) {
    return (
      <div className="page">
        <Space role="status">
          <Spin /> <span>{ADMIN_TEXT.serverLoading}</span>
        </Space>
      </div>
    );
  }
  if (isError || !server) {
    return (
      <div className="page">
        <PageTitle>Server</PageTitle>
        <Alert type="error" title={ADMIN_TEXT.serverError} showIcon />
      </div>
    );
  }
  const info = server.tierInfo;
  return (
    <div className="page">
      <PageTitle>{server.name}</PageTitle>
      <Panel title="Summary">
        <dl className="admin-summary">
          {(
            [
              ['Name', server.name],
              ['Tier', info.label],
              [
                'Tier limits',
                `${info.limit.toLocaleString()} logs/hour, ${info.retentionDays} days retention, ${info.maxPhotoLogs} photo logs, ${info.maxServerUsers} users, ${info.maxExportsPerMonth} exports/month, ${info.maxWebhooks} webhooks, ${info.maxBackups} backups`,
              ],
              ['Created', formatDate(server.created_at)],
              ['Status', <span data-testid="admin-server-status">{server.is_suspended ? 'Suspended' : 'Active'}</span>],
              ['Total users', server.userCount],
            ] as [string, ReactNode][]
          ).map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </Panel>
      <ServerActions id={server.id} tier={server.tier} suspended={server.is_suspended} />
      <ServerTabs
        tabs={[
          { key: 'users', label: 'Users', render: () => <MembersTab id={server.id} /> },
          { key: 'backups', label: 'Database Backups', render: () => <BackupsTab id={server.id} /> },
          { key: 'photos', label: 'Photo Logs', render: () => <PhotosTab id={server.id} /> },
          { key: 'logs', label: 'Logs', render: () => <LogsTab id={server.id} /> },
          { key: 'audit', label: 'Audit Logs', render: () => <AuditTab id={server.id} /> },
        ]}
      />
    </div>
  );
}
