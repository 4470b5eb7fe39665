import { Link } from 'react-router';
import { Panel } from '../common/Panel.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';

// Documentation, legal and not-yet-built screens share this simple page; their full
// content belongs to other issues (spec 001), but links must never lead nowhere. Plain paragraphs in a
// Panel, styled like antd's Typography and Card (styles.css .prose): public pages load no antd code.
export function InfoPage({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Panel className="narrow-card prose">
      <PageTitle>{title}</PageTitle>
      {children}
    </Panel>
  );
}

export function DocsPage() {
  return (
    <InfoPage title="Documentation">
      <p>
        Send text logs with <code>POST /api/logs</code> and photo logs with <code>POST /api/photologs</code> (multipart, field <code>photo</code>),
        authenticated with your server's API key in the <code>X-API-Key</code> header.
      </p>
      <p>
        Text logs take <code>message</code> (required), <code>level</code> (info, warn, error, fatal, debug), <code>type</code>, <code>resource</code> and a{' '}
        <code>metadata</code> object. Photos may be JPG, PNG or WEBP up to 10 MB.
      </p>
      <Link to="/create-server">Create a server to get an API key</Link>
    </InfoPage>
  );
}

export function PrivacyPage() {
  return (
    <InfoPage title="Privacy Policy">
      <p>Last updated 11-08-2025.</p>
      <p>
        We store the account details you give us, the logs and photo logs your servers send, and a session token and your theme choice in your browser's local
        storage. Our servers are located in Germany.
      </p>
    </InfoPage>
  );
}

export function TermsPage() {
  return (
    <InfoPage title="Terms of Service">
      <p>Last updated 11-08-2025.</p>
      <p>
        You must be at least 16 years old. Subscriptions are per server and monthly; billing is managed on the /billing page of each server.
      </p>
    </InfoPage>
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
