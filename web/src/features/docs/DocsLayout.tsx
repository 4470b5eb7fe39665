import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { Panel } from '../common/Panel.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';

/** Every documentation page, in reading order (docs/spec/part-2.txt section 2). */
export const DOCS_PAGES = [
  { path: '/docs', label: 'Overview' },
  { path: '/docsapi/setup', label: 'Setup' },
  { path: '/docsapi/logs', label: 'Logs API' },
  { path: '/docsapi/photologs', label: 'Photo logs API' },
  { path: '/features', label: 'Features' },
  { path: '/features/apitokens', label: 'API tokens' },
  { path: '/features/servers', label: 'Servers and roles' },
  { path: '/features/backups', label: 'Database backups' },
  { path: '/features/webhooks', label: 'Webhooks' },
  { path: '/games/fivem', label: 'FiveM' },
  { path: '/games/minecraft', label: 'Minecraft' },
] as const;

/** A documentation page: its title, the docs navigation, then the content (plain markup, see InfoPage). */
export function DocsLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Panel className="docs-card prose">
      <PageTitle>{title}</PageTitle>
      <nav aria-label="Documentation">
        <ul className="docs-nav">
          {DOCS_PAGES.map((page) => (
            <li key={page.path}>
              <NavLink to={page.path} end>
                {page.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {children}
    </Panel>
  );
}

/** The address this installation is reached at, so examples can be copied as they are. */
export function apiOrigin(): string {
  return typeof window === 'undefined' ? 'https://skald.example.com' : window.location.origin;
}
