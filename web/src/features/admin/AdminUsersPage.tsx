import { SITE_ROLES, type AdminUser, type SiteRole } from '@skald/contracts/api';
import { Button } from 'antd';
import { useState } from 'react';
import { errorText } from '../../app/errors.ts';
import { useToast } from '../../app/toast.tsx';
import { ScrollTable } from '../common/ScrollTable.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';
import { AdminQueryView } from './AdminQueryView.tsx';
import { useAdminUsersQuery, useSetUserActiveMutation, useSetUserRoleMutation } from './adminApi.ts';
import { ADMIN_POLL_MS, ADMIN_TEXT, formatDateTime } from './adminText.ts';

/** Staff accounts page 'All users' (docs/spec/part-2.txt sections 2, 4, 5, 8): admin and superadmin; refreshed every 20 s. */
export default function AdminUsersPage() {
  const toast = useToast();
  const { data, isLoading, isError } = useAdminUsersQuery(undefined, { pollingInterval: ADMIN_POLL_MS.users, skipPollingIfUnfocused: true });
  const [setRole] = useSetUserRoleMutation();
  const [setActive] = useSetUserActiveMutation();
  // One update at a time (docs/spec/part-2.txt section 4): the row in flight is disabled and no other update starts.
  const [busy, setBusy] = useState<string | null>(null);

  const run = async (user: AdminUser, change: () => Promise<unknown>, ok: string, fallback: string, useServerText: boolean) => {
    if (busy !== null) return;
    setBusy(user.id);
    try {
      await change();
      toast.success(ok);
    } catch (err) {
      toast.error(useServerText ? errorText(err, fallback) : fallback);
    } finally {
      setBusy(null);
    }
  };

  const changeRole = (user: AdminUser, role: SiteRole) => {
    if (role === user.role) return;
    void run(user, () => setRole({ userId: user.id, role }).unwrap(), ADMIN_TEXT.roleUpdated, ADMIN_TEXT.roleFailed, true);
  };
  const toggleActive = (user: AdminUser) => void run(user, () => setActive({ userId: user.id, active: !user.active }).unwrap(), ADMIN_TEXT.statusUpdated, ADMIN_TEXT.statusFailed, false);

  return (
    <div className="page">
      <PageTitle>All users</PageTitle>
      <AdminQueryView data={data} isLoading={isLoading} isError={isError} loadingText={ADMIN_TEXT.usersLoading}>
        {({ users }) => (
          <ScrollTable label="Users table" caption="All users" className="audit-table admin-table admin-users-table" head={['Email', 'Username', 'Role', '2FA', 'Servers', 'Active', 'Created at', 'Last login', 'Actions']}>
            {users.map((user) => {
              const rowBusy = busy === user.id;
              return (
                <tr key={user.id} data-testid="admin-user-row" data-user={user.email}>
                  <td>{user.email}</td>
                  <td>{user.username}</td>
                  <td>{user.role}</td>
                  <td>{user.twoFAEnabled ? 'Yes' : 'No'}</td>
                  <td>{user.serverCount}</td>
                  <td>{user.active ? 'Yes' : 'No'}</td>
                  <td>{formatDateTime(user.created_at)}</td>
                  <td>{formatDateTime(user.last_successful_login)}</td>
                  <td>
                    <div className="admin-actions">
                      <select
                        className="native-select"
                        aria-label={`Role of ${user.email}`}
                        value={user.role}
                        disabled={!user.twoFAEnabled || rowBusy}
                        title={user.twoFAEnabled ? undefined : ADMIN_TEXT.needs2FA}
                        onChange={(e) => changeRole(user, e.target.value as SiteRole)}
                      >
                        {SITE_ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                      {!user.twoFAEnabled && <span className="muted admin-hint">{ADMIN_TEXT.needs2FA}</span>}
                      <Button size="small" disabled={rowBusy} loading={rowBusy} onClick={() => toggleActive(user)} aria-label={`${user.active ? 'Disable' : 'Enable'} ${user.email}`}>
                        {user.active ? 'Disable' : 'Enable'}
                      </Button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </ScrollTable>
        )}
      </AdminQueryView>
    </div>
  );
}
