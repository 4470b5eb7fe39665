import { MenuOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { useAppSelector } from '../../app/hooks.ts';
import { useThemeMode } from '../../app/theme.tsx';
import { useMeQuery } from '../auth/authApi.ts';
import { useLogout } from '../auth/session.ts';
import { isStaffRole } from './navigation.ts';
import { useIsMobile } from './useIsMobile.ts';

interface HeaderLink {
  to: string;
  label: string;
}

const PUBLIC_LINKS: HeaderLink[] = [
  { to: '/', label: 'Home' },
  { to: '/docs', label: 'Docs' },
  { to: '/contact', label: 'Contact' },
  { to: '/login', label: 'Login' },
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/terms-of-service', label: 'Terms of Service' },
];

const SIGNED_IN_LINKS: HeaderLink[] = [
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/user-settings', label: 'User Settings' },
  { to: '/create-server', label: 'Create Server' },
];

export function AppHeader() {
  const token = useAppSelector((s) => s.session.token);
  const { data: me } = useMeQuery(undefined, { skip: !token });
  const { mode, toggle } = useThemeMode();
  const logout = useLogout();
  const isMobile = useIsMobile();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();

  useEffect(() => setMenuOpen(false), [location.pathname]);

  const links = token ? [...SIGNED_IN_LINKS] : PUBLIC_LINKS;
  if (token && isStaffRole(me?.user.role)) links.push({ to: '/admin/dashboard', label: 'Admin' });

  const linkList = (vertical: boolean) => (
    <ul className={vertical ? 'header-links vertical' : 'header-links'}>
      {links.map((link) => (
        <li key={link.to}>
          <NavLink to={link.to} end={link.to === '/'}>
            {link.label}
          </NavLink>
        </li>
      ))}
      {token && (
        <li>
          {/* A plain button styled as the links beside it: antd's link button brought its own font
              size and antd's default blue (4.1:1 light, 3.3:1 dark, below AA). */}
          <button type="button" onClick={logout} className="header-link-button">
            Log out
          </button>
        </li>
      )}
    </ul>
  );

  const themeLabel = mode === 'dark' ? 'Switch to light theme' : 'Switch to dark theme';
  return (
    <header className="app-header">
      <NavLink to={token ? '/dashboard' : '/'} className="brand">
        Skald
      </NavLink>
      {!isMobile && <nav aria-label="Main">{linkList(false)}</nav>}
      <div className="header-actions">
        <Button shape="circle" aria-label={themeLabel} title={themeLabel} onClick={toggle} icon={mode === 'dark' ? <SunOutlined /> : <MoonOutlined />} />
        {isMobile && (
          <Button aria-label={menuOpen ? 'Close menu' : 'Open menu'} aria-expanded={menuOpen} aria-controls="mobile-menu" icon={<MenuOutlined />} onClick={() => setMenuOpen((o) => !o)} />
        )}
      </div>
      {isMobile && menuOpen && (
        <nav id="mobile-menu" className="mobile-menu" aria-label="Mobile">
          {linkList(true)}
        </nav>
      )}
    </header>
  );
}
