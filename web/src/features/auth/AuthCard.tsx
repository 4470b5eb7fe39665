import type { ReactNode } from 'react';
import { Panel } from '../common/Panel.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';

// Login, register, forgot and reset screens show no header, footer or sidebar (docs/spec/part-1.txt section 2).
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth-screen">
      <Panel className="auth-card">
        <PageTitle className="auth-title">{title}</PageTitle>
        {children}
      </Panel>
    </main>
  );
}
