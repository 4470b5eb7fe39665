import type { ReactNode } from 'react';
import { Panel } from '../common/Panel.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';

// Login, register, forgot and reset screens show no header, footer or sidebar (docs/spec/part-1.txt section 2).
// `links`: where else to go from here (log in, register, reset the password), in a row below the form.
export function AuthCard({ title, links, children }: { title: string; links?: ReactNode; children: ReactNode }) {
  return (
    <main className="auth-screen">
      <Panel className="auth-card">
        <PageTitle className="auth-title">{title}</PageTitle>
        {children}
        {links && <div className="auth-links">{links}</div>}
      </Panel>
    </main>
  );
}
