import { Link } from 'react-router';
import { CodeBlock } from './CodeBlock.tsx';
import { DocTable } from './DocTable.tsx';
import { DOCS_PAGES, DocsLayout } from './DocsLayout.tsx';
import { TIER_COLUMNS, TierTable } from './TierTable.tsx';

export const WEBHOOK_TARGETS = ['Discord', 'Slack', 'Telegram', 'Teams', 'Mattermost', 'Rocket.Chat', 'Google Chat', 'PagerDuty'] as const;

export function DocsOverviewPage() {
  return (
    <DocsLayout title="Documentation">
      <p>
        Skald collects the logs of your game servers: text logs and screenshots (photo logs) sent with a per-server API key, shown on a dashboard, filtered,
        exported, forwarded to chat tools by webhooks, with scheduled backups of your game database.
      </p>
      <ul>
        {DOCS_PAGES.filter((page) => page.path !== '/docs').map((page) => (
          <li key={page.path}>
            <Link to={page.path}>{page.label}</Link>
          </li>
        ))}
      </ul>
      <p>
        New here? Start with <Link to="/docsapi/setup">Setup</Link>. Running FiveM? <Link to="/games/fivem">Install the Skald resource</Link>.
      </p>
    </DocsLayout>
  );
}

export function FeaturesDocsPage() {
  return (
    <DocsLayout title="Features">
      <h2>Logs and photo logs</h2>
      <p>
        Send logs with a level (info, warn, error, fatal, debug), a type, a resource and any metadata (<Link to="/docsapi/logs">Logs API</Link>), and
        screenshots with the same fields (<Link to="/docsapi/photologs">Photo logs API</Link>). Filter and search them, see totals and trends on the dashboard,
        and colour each level per server.
      </p>
      <h2>Servers and roles</h2>
      <p>
        One account can run several servers, each with its own key, logs, members, webhooks, backups and plan (<Link to="/features/servers">Servers and roles</Link>
        ).
      </p>
      <h2>API tokens</h2>
      <p>
        Every server has its own API key, shown once and replaceable at any time (<Link to="/features/apitokens">API tokens</Link>).
      </p>
      <h2>Webhooks</h2>
      <p>
        Forward logs to {WEBHOOK_TARGETS.join(', ')}, with retries and a dead-letter queue (<Link to="/features/webhooks">Webhooks</Link>).
      </p>
      <h2>Database backups</h2>
      <p>
        Scheduled backups of your game server's database, kept per plan (<Link to="/features/backups">Database backups</Link>).
      </p>
      <h2>Plans</h2>
      <p>Every server starts on the free tier; paid plans are monthly, per server, and raise these limits:</p>
      <TierTable caption="Limits by tier" columns={[TIER_COLUMNS.logsPerHour, TIER_COLUMNS.retention, TIER_COLUMNS.photoLogs, TIER_COLUMNS.users, TIER_COLUMNS.webhooks, TIER_COLUMNS.backups]} />
    </DocsLayout>
  );
}

export function ApiTokensDocsPage() {
  return (
    <DocsLayout title="API tokens">
      <p>Each server has one API key. Your game server sends it with every log; it identifies the server, so no other login is needed.</p>
      <h2>Shown once</h2>
      <p>
        Skald shows the key when the server is created and when it is reset, and never again: it keeps only a hash of it. Copy it when it is shown, then press 'I
        have saved it'.
      </p>
      <h2>Reset</h2>
      <p>
        The owner can reset the key under <Link to="/settings">Settings</Link>, API key, Reset. After confirming, the new key is shown once. The old key stops
        working immediately: logs sent with it get <code>401 Invalid API key</code>, so update your game server (for FiveM: <code>set skald_api_key</code>) right
        away.
      </p>
      <h2>Sending it</h2>
      <p>
        Prefer the <code>X-API-Key</code> header. <code>Authorization: Bearer</code> works too. <code>?apiKey=</code> in the address is accepted for older clients but
        deprecated; keys in addresses leak into logs and histories.
      </p>
      <CodeBlock label="the key in a header" code={'X-API-Key: YOUR_API_KEY'} />
    </DocsLayout>
  );
}

export function ServersDocsPage() {
  return (
    <DocsLayout title="Servers and roles">
      <p>
        A server in Skald is one game server (or project). <Link to="/create-server">Create</Link> as many as you need and switch between them in the sidebar:
        each has its own API key, logs, members, webhooks, backups and plan.
      </p>
      <h2>Roles</h2>
      <DocTable
        caption="Server roles"
        head={['Role', 'May']}
        rowHeaders
        rows={[
          [
            'Owner',
            'Full control, including adding and removing users, resetting the API key, backups and the subscription. The creator of a server is its owner; the owner cannot be removed or demoted.',
          ],
          ['Admin', 'Manages logs (including deleting old ones), webhooks, colour settings and the server name, and sees audit logs and exports.'],
          ['Member', <>Read-only: the dashboard, logs and photo logs. (Shown as the role <code>user</code> in the app.)</>],
        ]}
      />
      <h2>Members</h2>
      <p>
        The owner adds people who already have a Skald account by e-mail under <Link to="/server-users">Users</Link>, as admin or user, and changes or removes them
        there. Each plan allows a number of users per server (the owner counts):
      </p>
      <TierTable caption="Users per server by tier" columns={[TIER_COLUMNS.users]} />
      <h2>Retention</h2>
      <p>Logs are kept for the retention period of the server's plan at the time they arrive, then deleted:</p>
      <TierTable caption="Retention by tier" columns={[TIER_COLUMNS.retention]} />
    </DocsLayout>
  );
}

export function BackupsDocsPage() {
  return (
    <DocsLayout title="Database backups">
      <p>
        Skald can back up your game server's database (MySQL or MariaDB, as FiveM frameworks use) on a schedule and keep the backups for you to download. Backups
        are an owner feature of paid plans.
      </p>
      <h2>Settings</h2>
      <p>
        Under <Link to="/backups">DB Backups</Link>, Backup Settings: enabled, the interval in hours, and the database's host, port, username, database name and
        password. The password is stored encrypted and never shown again. 'Create now' makes a backup at once; each backup can be downloaded or deleted.
      </p>
      <h2>Use a read-only database user</h2>
      <p>Skald only needs to read. Give it its own user that can read and nothing else, so a leaked password cannot change your data:</p>
      <CodeBlock
        label="a read-only MariaDB user"
        code={`CREATE USER 'skald_backup'@'%' IDENTIFIED BY 'a-long-random-password';
GRANT SELECT, SHOW VIEW, TRIGGER ON your_database.* TO 'skald_backup'@'%';
-- stored procedures and functions: MariaDB 10.x
GRANT SELECT ON mysql.proc TO 'skald_backup'@'%';
-- or on MySQL 8.0.20+ and MariaDB 11+:
-- GRANT SHOW_ROUTINE ON *.* TO 'skald_backup'@'%';`}
      />
      <p>
        No LOCK TABLES, RELOAD or PROCESS privilege is needed: the backup reads one consistent snapshot and takes no locks, so the game keeps writing while it
        runs.
      </p>
      <p>Allow connections from Skald's address only (firewall or the host part of the user) where you can.</p>
      <h2>How many are kept</h2>
      <p>Each plan keeps a number of backups per server; when a new backup would pass it, the oldest backup is removed automatically.</p>
      <TierTable caption="Backups kept by tier" columns={[TIER_COLUMNS.backups]} />
    </DocsLayout>
  );
}

export function WebhooksDocsPage() {
  return (
    <DocsLayout title="Webhooks">
      <p>Webhooks forward your server's logs to the tools your team already reads. Admins and the owner manage them under Webhooks.</p>
      <h2>Targets</h2>
      <ul>
        {WEBHOOK_TARGETS.map((target) => (
          <li key={target}>{target}</li>
        ))}
      </ul>
      <p>Paste the incoming-webhook address the tool gives you, and send a test from the webhook's row to check it.</p>
      <h2>Failed deliveries</h2>
      <p>
        Each webhook shows its last attempt (success, or failed with the status code or 'no response') and its failed attempts. A delivery that fails (no answer, or an
        answer other than 2xx) is tried 6 times in all, about 5 s, 20 s, 80 s, 5 min and 21 min apart; if it still fails it goes to the webhook's dead-letter
        queue. A 429 with Retry-After (Discord, Slack) is waited out and not counted as a failure; a 410 answer disables the webhook until you edit it. Show the queue to see what was not delivered and replay an entry to send its
        payload again. Entries stay until they are replayed successfully or cleared.
      </p>
      <h2>How many</h2>
      <TierTable caption="Webhooks by tier" columns={[TIER_COLUMNS.webhooks]} />
      <p>The free plan has no webhooks.</p>
    </DocsLayout>
  );
}
