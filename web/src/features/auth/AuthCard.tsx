import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';

// Login, register, forgot and reset screens show no header, footer or sidebar (spec 000 §2).
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth-screen">
      <Card className="auth-card">
        <Typography.Title level={2} className="auth-title">
          {title}
        </Typography.Title>
        {children}
      </Card>
    </main>
  );
}
