import { LockOutlined } from '@ant-design/icons';
import { NavLink, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { serverSelected } from '../../app/sessionSlice.ts';
import { useMeQuery } from '../auth/authApi.ts';
import { serversApi, useServerUsageQuery } from '../servers/serversApi.ts';
import { roleLabel, sidebarGroups } from './navigation.ts';
import { UsageBar } from './UsageBar.tsx';

export function ServerSidebar() {
  const { data: me } = useMeQuery(undefined);
  const serverId = useAppSelector((s) => s.session.serverId);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { data: usage } = useServerUsageQuery(serverId ?? '', { skip: !serverId });
  const servers = me?.servers ?? [];
  const current = servers.find((s) => s.id === serverId);
  const groups = sidebarGroups(current?.role, usage);

  // Choosing another server goes to /dashboard and refreshes that server's usage (docs/spec/part-1.txt section 2).
  const switchServer = (id: string) => {
    const chosen = servers.find((s) => s.id === id);
    if (!chosen) return;
    dispatch(serverSelected({ id: chosen.id, name: chosen.name }));
    dispatch(serversApi.util.invalidateTags([{ type: 'Usage', id: chosen.id }]));
    navigate('/dashboard');
  };

  return (
    <nav className="sidebar-inner" aria-label="Server navigation">
      <div className="sidebar-section">
        <label className="sidebar-caption muted" htmlFor="server-switcher">
          Server
        </label>
        {servers.length > 0 ? (
          // The 12rem sidebar cuts long names: the full name is the switcher's tooltip.
          <select id="server-switcher" className="server-switcher" value={serverId ?? ''} title={current?.name} onChange={(e) => switchServer(e.target.value)}>
            {servers.map((s) => (
              <option key={s.id} value={s.id} title={s.name}>
                {s.name}
              </option>
            ))}
          </select>
        ) : (
          <NavLink to="/create-server">Create your first server</NavLink>
        )}
        <div className="sidebar-role">
          Role: <span className="role-badge">{roleLabel(current?.role)}</span>
        </div>
      </div>
      {groups.map((group) => (
        <div key={group.key} className="sidebar-group">
          <span className="sidebar-caption muted">{group.label}</span>
          <ul>
            {group.entries.map((item) => (
              <li key={item.key}>
                {item.locked ? (
                  <span className="sidebar-link locked" aria-disabled="true" title="Not included in this server's plan">
                    <LockOutlined /> {item.label}
                  </span>
                ) : (
                  <NavLink to={item.path} className="sidebar-link">
                    {item.label}
                  </NavLink>
                )}
              </li>
            ))}
          </ul>
        </div>
      ))}
      {serverId && <UsageBar serverId={serverId} />}
    </nav>
  );
}
