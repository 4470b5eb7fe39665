import { Alert, Button, Space, Spin } from 'antd';
import { useState, type FormEvent } from 'react';
import { errorText } from '../../../app/errors.ts';
import { useToast } from '../../../app/toast.tsx';
import { useMeQuery } from '../../auth/authApi.ts';
import { ScrollTable } from '../../common/ScrollTable.tsx';
import { ADMIN_MEMBER_ROLES, type AdminMemberRole, useAddAdminServerUserMutation, useAdminServerUsersQuery, useChangeAdminServerUserRoleMutation, useRemoveAdminServerUserMutation } from '../adminApi.ts';
import { canManageServers } from '../adminNav.ts';
import { ADMIN_POLL_MS, ADMIN_TEXT } from '../adminText.ts';

/** Users tab (docs/spec/part-2.txt sections 2, 4, 5, 8): members, the add form, role change and removal (admin and superadmin change). */
export function MembersTab({ id }: { id: string }) {
  const toast = useToast();
  const { data: me } = useMeQuery(undefined);
  const { data, isLoading, isError } = useAdminServerUsersQuery(id, { pollingInterval: ADMIN_POLL_MS.servers, skipPollingIfUnfocused: true });
  const [add, adding] = useAddAdminServerUserMutation();
  const [changeRole] = useChangeAdminServerUserRoleMutation();
  const [remove] = useRemoveAdminServerUserMutation();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AdminMemberRole | ''>('');
  const [formError, setFormError] = useState<string | null>(null);
  const manage = canManageServers(me?.user.role);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    if (email.trim() === '' || role === '') {
      setFormError(ADMIN_TEXT.emailAndRole);
      return;
    }
    try {
      await add({ id, email: email.trim(), role }).unwrap();
      toast.success(ADMIN_TEXT.added);
      setEmail('');
      setRole('');
    } catch (err) {
      setFormError(errorText(err, ADMIN_TEXT.addFailed));
      toast.error(ADMIN_TEXT.addFailedToast);
    }
  };
  const setMemberRole = async (userId: string, next: AdminMemberRole) => {
    setFormError(null);
    try {
      await changeRole({ id, userId, role: next }).unwrap();
      toast.success(ADMIN_TEXT.memberRoleChanged);
    } catch (err) {
      setFormError(errorText(err, ADMIN_TEXT.memberRoleFailed));
      toast.error(ADMIN_TEXT.memberRoleFailedToast);
    }
  };
  const removeMember = async (userId: string) => {
    if (!window.confirm(ADMIN_TEXT.removeConfirm)) return;
    try {
      await remove({ id, userId }).unwrap();
      toast.success(ADMIN_TEXT.removed);
    } catch (err) {
      setFormError(errorText(err, ADMIN_TEXT.removeFailed));
      toast.error(ADMIN_TEXT.removeFailedToast);
    }
  };

  if (isLoading) return <Spin />;
  if (isError || !data) return <Alert type="error" title={ADMIN_TEXT.serverError} showIcon />;
  return (
    <div>
      {manage && (
        <form className="admin-add-user" aria-label="Add user to server" onSubmit={(e) => void submit(e)} noValidate>
          <Space wrap align="end">
            <div className="filter-field">
              <label className="field-label" htmlFor="admin-add-email">
                E-mail
              </label>
              <input id="admin-add-email" className="native-input" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
            </div>
            <div className="filter-field">
              <label className="field-label" htmlFor="admin-add-role">
                Role
              </label>
              <select id="admin-add-role" className="native-select" value={role} onChange={(e) => setRole(e.target.value as AdminMemberRole | '')}>
                <option value="">Select a role</option>
                {ADMIN_MEMBER_ROLES.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </div>
            <Button htmlType="submit" type="primary" loading={adding.isLoading}>
              Add user
            </Button>
          </Space>
        </form>
      )}
      {formError && <Alert type="error" title={formError} showIcon className="admin-inline-error" />}
      <ScrollTable label="Server users table" caption="Server users" className="audit-table" head={manage ? ['Username', 'Email', 'Role', 'Actions'] : ['Username', 'Email', 'Role']}>
        {data.users.map((u) => (
          <tr key={u.id} data-testid="admin-member-row" data-user={u.email}>
            <td>{u.username}</td>
            <td>{u.email}</td>
            <td>
              {manage && u.role !== 'owner' ? (
                <select className="native-select" aria-label={`Role of ${u.email}`} value={u.role} onChange={(e) => void setMemberRole(u.id, e.target.value as AdminMemberRole)}>
                  {ADMIN_MEMBER_ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              ) : (
                u.role
              )}
            </td>
            {manage && (
              <td>
                {u.role !== 'owner' && (
                  <Button size="small" onClick={() => void removeMember(u.id)} aria-label={`Remove ${u.email}`}>
                    Remove
                  </Button>
                )}
              </td>
            )}
          </tr>
        ))}
      </ScrollTable>
    </div>
  );
}
