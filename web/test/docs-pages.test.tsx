import type { ApiTier, PublicConfig, TierList } from '@skald/contracts/api';
import { screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { LogsApiDocsPage, PhotoLogsApiDocsPage, SetupDocsPage } from '../src/features/docs/ApiDocsPages.tsx';
import { DOCS_PAGES } from '../src/features/docs/DocsLayout.tsx';
import { ApiTokensDocsPage, BackupsDocsPage, DocsOverviewPage, FeaturesDocsPage, ServersDocsPage, WebhooksDocsPage } from '../src/features/docs/FeatureDocsPages.tsx';
import { FiveMDocsPage, MinecraftDocsPage } from '../src/features/docs/GamesPages.tsx';
import { PrivacyPage, TermsPage } from '../src/features/landing/LegalPages.tsx';
import { json, mockApi, renderScreen } from './helpers.tsx';

function tier(key: ApiTier['key'], label: string, retentionDays: number): ApiTier {
  return { key, label, price: 0, limit: 1000, retentionDays, maxPhotoLogs: 10, maxServerUsers: 2, maxExportsPerMonth: 2, maxWebhooks: 0, maxBackups: 0, maxAlertRules: 0, maxCases: 3 };
}
const TIERS: TierList = [tier('free', 'Free', 7), tier('legend', 'Legend', 365)];

function publicApi(supportEmail: string | null, tiers: () => Response = () => json(TIERS)) {
  return mockApi({ 'GET /public-config': () => json({ supportEmail } satisfies PublicConfig), 'GET /tiers': tiers });
}

const sectionTitles = () => screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
const text = () => document.body.textContent ?? '';

describe('Privacy Policy (docs/spec/part-2.txt section 2)', () => {
  it('has the 11 numbered sections in order, the date, servers in Germany and the configured support address', async () => {
    publicApi('help@skald.example');
    renderScreen(<PrivacyPage />, { path: '/privacy-policy' });
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeTruthy();
    expect(sectionTitles()).toEqual([
      '1. Introduction',
      '2. Information we collect',
      '3. Local storage',
      '4. How we use information',
      '5. Sharing',
      '6. Retention',
      '7. Security',
      '8. International transfers',
      '9. Your rights',
      '10. Changes to this policy',
      '11. Contact',
    ]);
    expect(text()).toContain('Last updated 11-08-2025');
    expect(text()).toMatch(/servers are located in Germany/);
    const email = await screen.findByTestId('support-email');
    expect(email.textContent).toBe('help@skald.example');
    expect(email.getAttribute('href')).toBe('mailto:help@skald.example');
  });

  it('points to the contact form when no support address is configured', async () => {
    publicApi(null);
    renderScreen(<PrivacyPage />, { path: '/privacy-policy' });
    await waitFor(() => expect(screen.getByRole('link', { name: 'our contact form' }).getAttribute('href')).toBe('/contact'));
    expect(screen.queryByTestId('support-email')).toBeNull();
  });
});

describe('Terms of Service (docs/spec/part-2.txt section 2)', () => {
  it('has the 14 sections with every point of the spec and the retention table from GET /tiers', async () => {
    const seen = publicApi('help@skald.example');
    renderScreen(<TermsPage />, { path: '/terms-of-service' });
    expect(sectionTitles()).toHaveLength(14);
    expect(sectionTitles().map((t) => t?.replace(/^\d+\. .*/, 'n'))).toEqual(Array(14).fill('n'));
    const body = text();
    expect(body).toContain('Last updated 11-08-2025');
    expect(body).toContain('at least 16 years old');
    expect(body).toMatch(/Subscriptions are per server/);
    expect(body).toMatch(/monthly only/);
    expect(body).toMatch(/\/billing page of each server or in the payment provider's customer portal/);
    expect(body).toMatch(/at least 30 days/);
    expect(body).toMatch(/apply immediately, with proration/);
    expect(body).toMatch(/until the end of the current billing cycle, then reverts to the free tier/);
    expect(body).toMatch(/oldest backup is removed automatically/);
    expect(body).toMatch(/governed by Dutch law/);
    const table = await screen.findByTestId('tier-table');
    const rows = within(table).getAllByRole('row').map((row) => [...row.querySelectorAll('th,td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Tier', 'Retention (days)'],
      ['Free', '7'],
      ['Legend', '365'],
    ]);
    expect(seen.some((r) => new URL(r.url).pathname === '/api/tiers' && !r.headers.has('authorization'))).toBe(true);
  });

  it('only logs a failed tiers load and shows the rest of the page', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    publicApi(null, () => json({ error: 'down' }, { status: 500 }));
    renderScreen(<TermsPage />, { path: '/terms-of-service' });
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(screen.queryByTestId('tier-table')).toBeNull();
    expect(sectionTitles()).toHaveLength(14);
    warn.mockRestore();
  });
});

describe('Documentation pages (docs/spec/part-2.txt section 2)', () => {
  const PAGES: [string, ComponentType, string][] = [
    ['/docs', DocsOverviewPage, 'Documentation'],
    ['/docsapi/setup', SetupDocsPage, 'Setup'],
    ['/docsapi/logs', LogsApiDocsPage, 'Logs API'],
    ['/docsapi/photologs', PhotoLogsApiDocsPage, 'Photo logs API'],
    ['/features', FeaturesDocsPage, 'Features'],
    ['/features/apitokens', ApiTokensDocsPage, 'API tokens'],
    ['/features/servers', ServersDocsPage, 'Servers and roles'],
    ['/features/backups', BackupsDocsPage, 'Database backups'],
    ['/features/webhooks', WebhooksDocsPage, 'Webhooks'],
    ['/games/fivem', FiveMDocsPage, 'FiveM'],
    ['/games/minecraft', MinecraftDocsPage, 'Minecraft'],
  ];

  it('every page has one h1 and the docs navigation to all eleven pages, the current one marked', () => {
    publicApi(null);
    expect(PAGES.map(([path]) => path)).toEqual(DOCS_PAGES.map((p) => p.path));
    for (const [path, Page, title] of PAGES) {
      const view = renderScreen(<Page />, { path });
      expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual([title]);
      const nav = screen.getByRole('navigation', { name: 'Documentation' });
      expect(within(nav).getAllByRole('link')).toHaveLength(11);
      expect(within(nav).getByRole('link', { current: 'page' }).getAttribute('href')).toBe(path);
      view.unmount();
    }
  });

  it('the Logs API page states the fields, defaults, limits, the key options, batches and every answer', () => {
    publicApi(null);
    renderScreen(<LogsApiDocsPage />, { path: '/docsapi/logs' });
    const body = text();
    for (const fact of ['X-API-Key', 'Authorization: Bearer', '?apiKey=', 'Deprecation: true', 'up to 1000 logs', '10,000 characters', '200 characters', '16 KiB', '32 levels', '5 MiB', 'General', 'unknown', 'Retry-After', 'retryAfter']) {
      expect(body, fact).toContain(fact);
    }
    const answers = screen.getAllByRole('table')[1]!;
    expect(within(answers).getAllByRole('row').slice(1).map((row) => row.querySelector('td')?.textContent)).toEqual(['201', '400', '401', '403', '413', '429', '503']);
    // Copyable examples, addressed to this installation.
    const curl = screen.getByLabelText('one log with curl').textContent ?? '';
    expect(curl).toContain(`curl -X POST ${window.location.origin}/api/logs`);
    expect(curl).toContain('-H "X-API-Key: YOUR_API_KEY"');
    expect(screen.getByLabelText('one log from Lua').textContent).toContain("['X-API-Key'] = GetConvar('skald_api_key', '')");
    expect(screen.getByRole('button', { name: 'Copy a batch with curl' })).toBeTruthy();
  });

  it('the photo logs page names the form fields, the types and limits and the 415', () => {
    publicApi(null);
    renderScreen(<PhotoLogsApiDocsPage />, { path: '/docsapi/photologs' });
    for (const fact of ['multipart/form-data', 'JPG, PNG or WEBP', '10 MB', '40 megapixels', 'oldest photo log is deleted automatically', '415']) expect(text(), fact).toContain(fact);
    expect(screen.getByLabelText('a photo log with curl').textContent).toContain('-F "photo=@screenshot.jpg"');
  });

  it('roles, webhook targets with failed deliveries, backups with a read-only user, FiveM install and Minecraft coming soon', () => {
    publicApi(null);
    const servers = renderScreen(<ServersDocsPage />, { path: '/features/servers' });
    expect(screen.getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['Owner', 'Admin', 'Member']);
    expect(text()).toMatch(/Full control, including adding and removing users/);
    servers.unmount();
    const hooks = renderScreen(<WebhooksDocsPage />, { path: '/features/webhooks' });
    expect(screen.getAllByRole('listitem').map((li) => li.textContent).filter((t) => !DOCS_PAGES.some((p) => p.label === t))).toEqual([
      'Discord',
      'Slack',
      'Telegram',
      'Teams',
      'Mattermost',
      'Rocket.Chat',
      'Google Chat',
      'PagerDuty',
    ]);
    // The default schedule of docs/WEBHOOKS.md (WEBHOOK_MAX_ATTEMPTS 6, WEBHOOK_RETRY_BASE_MS 5000, x4 each time).
    expect(text()).toMatch(/tried 6 times in all, about 5 s, 20 s, 80 s, 5 min and 21 min apart; if it still fails it goes to the webhook's dead-letter\s+queue/);
    expect(text()).toContain('a 410 answer disables the webhook');
    hooks.unmount();
    const backups = renderScreen(<BackupsDocsPage />, { path: '/features/backups' });
    // The grants of docs/BACKUPS.md: read-only, no locking privileges (the snapshot takes none).
    expect(screen.getByLabelText('a read-only MariaDB user').textContent).toContain("GRANT SELECT, SHOW VIEW, TRIGGER ON your_database.* TO 'skald_backup'@'%';");
    expect(screen.getByLabelText('a read-only MariaDB user').textContent).not.toContain('LOCK TABLES');
    expect(text()).toMatch(/stored encrypted/);
    backups.unmount();
    const fivem = renderScreen(<FiveMDocsPage />, { path: '/games/fivem' });
    expect(screen.getByLabelText('server.cfg lines').textContent).toBe(
      `ensure baseevents\nensure screenshot-basic\nset skald_url "${window.location.origin}"\nset skald_api_key "YOUR_API_KEY"\nensure skald`,
    );
    for (const fact of ['[JOIN]', '[LEAVE]', '[DEATH]', 'warning', "exports.skald:log('error'", 'exports.skald:screenshot(playerId, message, metadata)', 'skald_log_ip', 'retryAfter']) {
      expect(text(), fact).toContain(fact);
    }
    // docs/spec/part-2.txt section 2: join, leave and chat at info, deaths at 'warning'; each built-in log's type and level.
    const builtIn = within(screen.getAllByRole('table')[1]!).getAllByRole('row').slice(1).map((row) => Array.from(row.querySelectorAll('td')).slice(1, 3).map((td) => td.textContent));
    expect(builtIn).toEqual([['Join', 'info'], ['Leave', 'info'], ['Chat', 'info'], ['Death', 'warning'], ['Death', 'warning'], ['Death', 'warning']]);
    // Every fmsdk log export is mapped.
    const fmsdk = within(screen.getAllByRole('table')[4]!).getAllByRole('row').map((row) => row.querySelector('td')?.textContent ?? '');
    for (const name of ['LogMessage(', 'Log(datasetId', 'Info', 'Warn', 'Error']) expect(fmsdk.some((cell) => cell.includes(name)), name).toBe(true);
    fivem.unmount();
    renderScreen(<MinecraftDocsPage />, { path: '/games/minecraft' });
    expect(text()).not.toContain('coming soon');
    // The log4j2.xml lines and the plugin's config are addressed to this installation; the key stays in an environment variable.
    expect(screen.getByLabelText('log4j2.xml lines').textContent).toContain(`<Skald name="Skald" url="${window.location.origin}" apiKeyEnv="SKALD_API_KEY" level="INFO"/>`);
    expect(screen.getByLabelText('plugins/Skald/config.yml').textContent).toContain(`url: "${window.location.origin}"`);
    expect(screen.getByLabelText('build the jar').textContent).toContain('integrations/minecraft/build.sh');
    for (const fact of ['folia', 'retryAfter', 'X-API-Key', 'SkaldQueue', 'logAddresses']) expect(text().toLowerCase(), fact).toContain(fact.toLowerCase());
    const lines = within(screen.getByRole('table', { name: 'Console lines' })).getAllByRole('row').slice(1).map((row) => Array.from(row.querySelectorAll('td')).slice(1, 3).map((td) => td.textContent));
    expect(lines).toContainEqual(['Join', 'info']);
    expect(lines).toContainEqual(['Death', 'warn']);
    expect(lines).toContainEqual(['Chat', 'info']);
  });
});
