import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { TIER_COLUMNS, TierTable } from '../docs/TierTable.tsx';
import { InfoPage } from './InfoPage.tsx';
import { SupportContact } from './SupportContact.tsx';

export const LEGAL_LAST_UPDATED = 'Last updated 11-08-2025';

/** One numbered section: an h2 with its number, then its paragraphs. */
function Section({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`section-${n}`}>
      <h2 id={`section-${n}`}>
        {n}. {title}
      </h2>
      {children}
    </section>
  );
}

/** Privacy Policy (docs/spec/part-2.txt section 2): 11 numbered sections, servers in Germany, the support address. */
export function PrivacyPage() {
  return (
    <InfoPage title="Privacy Policy" wide>
      <p className="muted">{LEGAL_LAST_UPDATED}</p>
      <Section n={1} title="Introduction">
        <p>
          This policy explains which personal data Skald processes when you use the website, the dashboard and the log API, why, and what your rights are. Skald is
          responsible for this processing.
        </p>
      </Section>
      <Section n={2} title="Information we collect">
        <p>
          Account data: your username, e-mail address, a hash of your password (never the password itself), whether two-factor authentication is on (its secret is
          stored encrypted), your servers and roles, and the time of your last sign-in. Log data: the text logs, photo logs and metadata your game servers send,
          which may contain data about your players that you choose to send. Backup data: the database backups you configure and the connection details for them
          (the password stored encrypted). Billing data: your subscription and its status; card details are handled by the payment provider and never reach us.
          Technical data: request times and addresses in our server logs, kept for security and operation.
        </p>
      </Section>
      <Section n={3} title="Local storage">
        <p>
          The web app keeps your session token, the server you selected (its id and name) and your light or dark theme choice in your browser's local storage. We use
          no tracking or advertising cookies. Logging out clears this storage.
        </p>
      </Section>
      <Section n={4} title="How we use information">
        <p>
          To provide the service you asked for: to sign you in, store and show your logs, send the webhooks and make the backups you set up, send password-reset
          mails, bill subscriptions, keep the service secure and answer your questions. We do not sell your data or use it for advertising.
        </p>
      </Section>
      <Section n={5} title="Sharing">
        <p>
          Only with the processors we need to run Skald: hosting in Germany, the card payment provider for subscriptions, and mail delivery. Webhooks send log
          content to the targets you configure. We disclose data to authorities only where the law requires it.
        </p>
      </Section>
      <Section n={6} title="Retention">
        <p>
          Logs are deleted after the retention period of the server's plan (shown in the <Link to="/terms-of-service">Terms of Service</Link>); photo logs and
          backups beyond the plan's limits are removed oldest first. You can delete logs earlier in the server settings. Account data is kept while your account
          exists; billing records as long as tax law requires.
        </p>
      </Section>
      <Section n={7} title="Security">
        <p>
          Connections are encrypted (HTTPS). Passwords are hashed, API keys are stored only as hashes, and secrets such as two-factor seeds and backup passwords are
          encrypted at rest. Access to a server's data is limited to its members and their roles.
        </p>
      </Section>
      <Section n={8} title="International transfers">
        <p>
          Our servers are located in Germany, in the European Union. Where a processor (for example the payment provider) handles data outside the EU, it does so under
          the safeguards the GDPR requires, such as standard contractual clauses.
        </p>
      </Section>
      <Section n={9} title="Your rights">
        <p>
          You may ask for access to, correction of, deletion of, or a copy of your personal data, object to or restrict its processing, and complain to a data
          protection authority. Many changes you can make yourself under <Link to="/user-settings">user settings</Link>.
        </p>
      </Section>
      <Section n={10} title="Changes to this policy">
        <p>We may update this policy. The date at the top shows the latest version; important changes are announced before they apply.</p>
      </Section>
      <Section n={11} title="Contact">
        <p>
          Questions about privacy: <SupportContact />.
        </p>
      </Section>
    </InfoPage>
  );
}

/** Terms of Service (docs/spec/part-2.txt section 2): 14 sections and the tier / retention table loaded from GET /tiers. */
export function TermsPage() {
  return (
    <InfoPage title="Terms of Service" wide>
      <p className="muted">{LEGAL_LAST_UPDATED}</p>
      <Section n={1} title="Acceptance">
        <p>By creating an account or using Skald you accept these terms. If you do not accept them, do not use the service.</p>
      </Section>
      <Section n={2} title="Eligibility">
        <p>You must be at least 16 years old to use Skald.</p>
      </Section>
      <Section n={3} title="Your account">
        <p>Keep your password, two-factor codes and API keys secret. You are responsible for what happens under your account and with your servers' API keys.</p>
      </Section>
      <Section n={4} title="The service">
        <p>
          Skald stores the logs and photo logs your game servers send, shows them to the members you add, and offers webhooks, backups and exports within the limits
          of each server's plan.
        </p>
      </Section>
      <Section n={5} title="Subscriptions">
        <p>
          Subscriptions are per server: every server has its own plan. Plans are monthly only; a server without a paid plan is on the free tier.
        </p>
      </Section>
      <Section n={6} title="Billing">
        <p>
          Billing is managed on the <Link to="/billing">/billing</Link> page of each server or in the payment provider's customer portal. Payments are made by card
          through the payment provider, in advance for each monthly billing cycle.
        </p>
      </Section>
      <Section n={7} title="Price changes">
        <p>We announce price changes at least 30 days before they apply to your subscription.</p>
      </Section>
      <Section n={8} title="Plan changes">
        <p>Upgrades and downgrades apply immediately, with proration: the difference for the rest of the billing cycle is credited or charged.</p>
      </Section>
      <Section n={9} title="Cancellation">
        <p>
          You can cancel at any time. The server keeps its plan until the end of the current billing cycle, then reverts to the free tier and its limits.
        </p>
      </Section>
      <Section n={10} title="Data retention">
        <p>Logs are kept for the retention period of the server's plan when they arrive, then deleted:</p>
        <TierTable caption="Retention period by tier" columns={[TIER_COLUMNS.retention]} />
      </Section>
      <Section n={11} title="Backups">
        <p>Each plan has a backup limit per server. When a new backup would exceed it, the oldest backup is removed automatically.</p>
      </Section>
      <Section n={12} title="Acceptable use">
        <p>
          Do not use Skald for unlawful content, to store data you may not process, to attack or overload the service, or to get around your plan's limits. We may
          suspend servers that do.
        </p>
      </Section>
      <Section n={13} title="Liability">
        <p>
          We run Skald with care but provide it as is. To the extent the law allows, we are not liable for indirect damage or lost data; keep your own copies of what
          matters to you.
        </p>
      </Section>
      <Section n={14} title="Governing law">
        <p>
          These terms are governed by Dutch law. Questions: <SupportContact />.
        </p>
      </Section>
    </InfoPage>
  );
}
