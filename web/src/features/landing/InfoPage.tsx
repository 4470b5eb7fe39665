import { Link } from 'react-router';
import { Panel } from '../common/Panel.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';

// Legal, not-yet-built and not-found pages share this simple page (LegalPages.tsx, docs/DocsLayout.tsx
// look the same). Plain paragraphs in a Panel, styled like antd's Typography and Card (styles.css .prose):
// public pages load no antd code.
export function InfoPage({ title, children, wide = false }: { title: string; children: React.ReactNode; wide?: boolean }) {
  return (
    <Panel className={wide ? 'docs-card prose' : 'narrow-card prose'}>
      <PageTitle>{title}</PageTitle>
      {children}
    </Panel>
  );
}

export function NotAvailablePage({ title }: { title: string }) {
  return (
    <InfoPage title={title}>
      <p>This screen is not available yet.</p>
    </InfoPage>
  );
}

export function NotFoundPage() {
  return (
    <InfoPage title="Page not found">
      <Link to="/">Back to the home page</Link>
    </InfoPage>
  );
}
