import { Card, Typography } from 'antd';
import { Link } from 'react-router';
import { PageTitle } from '../shell/PageTitle.tsx';

// Documentation, legal and not-yet-built screens share this simple page; their full
// content belongs to other issues (spec 001), but links must never lead nowhere.
export function InfoPage({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card className="narrow-card">
      <PageTitle>{title}</PageTitle>
      {children}
    </Card>
  );
}

export function DocsPage() {
  return (
    <InfoPage title="Documentation">
      <Typography.Paragraph>
        Send text logs with <code>POST /api/logs</code> and photo logs with <code>POST /api/photologs</code> (multipart, field <code>photo</code>),
        authenticated with your server's API key in the <code>X-API-Key</code> header.
      </Typography.Paragraph>
      <Typography.Paragraph>
        Text logs take <code>message</code> (required), <code>level</code> (info, warn, error, fatal, debug), <code>type</code>, <code>resource</code> and a{' '}
        <code>metadata</code> object. Photos may be JPG, PNG or WEBP up to 10 MB.
      </Typography.Paragraph>
      <Link to="/create-server">Create a server to get an API key</Link>
    </InfoPage>
  );
}

export function PrivacyPage() {
  return (
    <InfoPage title="Privacy Policy">
      <Typography.Paragraph>Last updated 11-08-2025.</Typography.Paragraph>
      <Typography.Paragraph>
        We store the account details you give us, the logs and photo logs your servers send, and a session token and your theme choice in your browser's local
        storage. Our servers are located in Germany.
      </Typography.Paragraph>
    </InfoPage>
  );
}

export function TermsPage() {
  return (
    <InfoPage title="Terms of Service">
      <Typography.Paragraph>Last updated 11-08-2025.</Typography.Paragraph>
      <Typography.Paragraph>
        You must be at least 16 years old. Subscriptions are per server and monthly; billing is managed on the /billing page of each server.
      </Typography.Paragraph>
    </InfoPage>
  );
}

export function NotAvailablePage({ title }: { title: string }) {
  return (
    <InfoPage title={title}>
      <Typography.Paragraph>This screen is not available yet.</Typography.Paragraph>
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
