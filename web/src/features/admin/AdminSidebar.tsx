import { NavLink } from 'react-router';
import { useMeQuery } from '../auth/authApi.ts';
import { roleLabel } from '../shell/navigation.ts';
import { adminScreensFor } from './adminNav.ts';

/** The admin area's own sidebar (docs/spec/part-2.txt section 2): its screens for the current site role, and that role. */
export function AdminSidebar() {
  const { data: me } = useMeQuery(undefined);
  const role = me?.user.role;
  return (
    <nav className="sidebar-inner" aria-label="Admin navigation">
      <div className="sidebar-section">
        <span className="sidebar-caption muted">Admin</span>
        <div className="sidebar-role">
          Role: <span className="role-badge" data-testid="admin-role">{roleLabel(role)}</span>
        </div>
      </div>
      <div className="sidebar-group">
        <ul>
          {adminScreensFor(role).map((screen) => (
            <li key={screen.path}>
              <NavLink to={screen.path} className="sidebar-link">
                {screen.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}
