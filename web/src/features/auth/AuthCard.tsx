import { Card } from 'antd';
import type { ReactNode } from 'react';
import { PageTitle } from '../shell/PageTitle.tsx';

// Login, register, forgot and reset screens show no header, footer or sidebar (spec 000 §2).
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth-screen">
      <Card className="auth-card">
        <PageTitle className="auth-title">{title}</PageTitle>
        {children}
      </Card>
    </main>
  );
}
