import { Alert, Button, Spin } from 'antd';
import { useState } from 'react';
import { Navigate } from 'react-router';
import { useAppSelector } from '../../app/hooks.ts';
import { useMeQuery } from '../auth/authApi.ts';
import { Panel } from '../common/Panel.tsx';
import { ScrollTable } from '../common/ScrollTable.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';
import { AddUserForm } from './AddUserForm.tsx';
import { ServerUserRow } from './ServerUserRow.tsx';
import { atUserLimit, SERVER_USERS_TEXT, userCountText, useServerUserCountQuery, useServerUsersQuery } from './serverUsersApi.ts';

/**
 * Manage Server Users (docs/spec/part-2.txt section 2): the members of the current server with 'current / limit users', an
 * Add user form that toggles open, and per row a role select and Delete. The owner's business only
 * (docs/DECISIONS.md, server roles): the route guard sends other roles to /dashboard (screens.ts minRole),
 * and the server answers them 403.
 */
export default function ServerUsersPage() {
  const serverId = useAppSelector((s) => s.session.serverId);
  const me = useMeQuery(undefined);
  const server = me.data?.servers.find((s) => s.id === serverId);
  const users = useServerUsersQuery(serverId ?? '', { skip: !server });
  const count = useServerUserCountQuery(serverId ?? '', { skip: !server });
  const [adding, setAdding] = useState(false);

  if (!serverId || (me.data && !server)) return <Navigate to="/dashboard" replace />;
  if (me.isError || users.isError || count.isError) return <Alert type="error" title={SERVER_USERS_TEXT.loadFailed} showIcon />;

  return (
    <Panel className="server-users-page">
      <PageTitle>Manage Server Users</PageTitle>
      {count.data && (
        <p className="count-line" data-testid="user-count">
          {userCountText(count.data)}
        </p>
      )}
      <Button onClick={() => setAdding((open) => !open)} aria-expanded={adding} aria-controls="add-user-panel">
        {adding ? 'Close' : 'Add user'}
      </Button>
      {adding && (
        <div id="add-user-panel" className="add-user-panel">
          <AddUserForm serverId={serverId} atLimit={atUserLimit(count.data)} />
        </div>
      )}
      {!users.data ? (
        <div className="page-loading">
          <Spin /> <span>{SERVER_USERS_TEXT.loading}</span>
        </div>
      ) : (
        <ScrollTable label="Server users" caption={<>Users of {server?.name}</>} className="plain-table" head={['Username', 'E-mail', 'Role', 'Actions']}>
          {users.data.map((user) => (
            <ServerUserRow key={user.id} serverId={serverId} user={user} />
          ))}
        </ScrollTable>
      )}
    </Panel>
  );
}
