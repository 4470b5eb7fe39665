import type { ServerUser } from '@skald/contracts/api';
import { Button, Popconfirm, Select } from 'antd';
import { errorText } from '../../app/errors.ts';
import { useToast } from '../../app/toast.tsx';
import { ASSIGNABLE_ROLES, type AssignableRole, SERVER_USERS_TEXT, useChangeServerUserRoleMutation, useRemoveServerUserMutation } from './serverUsersApi.ts';

/** One member: a role select and Delete; the owner's row is locked (docs/spec/part-2.txt section 4). */
export function ServerUserRow({ serverId, user }: { serverId: string; user: ServerUser }) {
  const toast = useToast();
  const [changeRole, changing] = useChangeServerUserRoleMutation();
  const [remove, removing] = useRemoveServerUserMutation();
  const role = user.role;

  const setRole = async (next: AssignableRole) => {
    if (next === role) return;
    try {
      await changeRole({ serverId, userId: user.id, role: next }).unwrap();
      toast.success(SERVER_USERS_TEXT.roleUpdated);
    } catch {
      toast.error(SERVER_USERS_TEXT.roleFailed);
    }
  };

  const removeUser = async () => {
    try {
      await remove({ serverId, userId: user.id }).unwrap();
      toast.success(SERVER_USERS_TEXT.removed);
    } catch (err) {
      // The spec's text, then the server's reason when it gives one.
      toast.error(`${SERVER_USERS_TEXT.removeFailed} ${errorText(err, '')}`.trim());
    }
  };

  return (
    <tr data-testid="server-user-row" data-user={user.email}>
      <td>{user.username}</td>
      <td>{user.email}</td>
      <td>
        {role === 'owner' ? (
          <span className="role-locked">owner</span>
        ) : (
          <Select<AssignableRole>
            value={role}
            options={ASSIGNABLE_ROLES.map((role) => ({ value: role, label: role }))}
            onChange={(next) => void setRole(next)}
            loading={changing.isLoading}
            disabled={changing.isLoading}
            aria-label={`Role of ${user.email}`}
            className="role-select"
          />
        )}
      </td>
      <td>
        {role !== 'owner' && (
          <Popconfirm title={`Remove ${user.email} from this server?`} okText="Delete" onConfirm={() => removeUser()}>
            <Button loading={removing.isLoading} aria-label={`Delete ${user.email}`}>
              Delete
            </Button>
          </Popconfirm>
        )}
      </td>
    </tr>
  );
}
