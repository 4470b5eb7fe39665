// The /alerts screen (docs/ALERTS.md): 'n / limit alert rules used', the rules with their state, the add
// form (filter fields, metadata key=value lines, the webhook picker, nothing sent while the form is
// incomplete, the server's sentence shown in the form), inline edit, delete after a confirmation, the test
// button's outcome, each rule's history, and /dashboard for a tier without rules or a member refused (403).
import type { AlertHistory, AlertList, ApiAlertRule, ApiWebhook, WebhookList } from '@skald/contracts/api';
import { ALERT_UNKNOWN_WEBHOOK } from '@skald/contracts/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import AlertsPage from '../src/features/alerts/AlertsPage.tsx';
import { ALERT_TEXT, alertFormProblem, conditionText, EMPTY_ALERT_FORM, filterSummary, fromAlertRule, toAlertBody } from '../src/features/alerts/alertForm.ts';
import { meAnswer, serverUsage } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

function rule(over: Partial<ApiAlertRule> = {}): ApiAlertRule {
  return {
    id: 'a1',
    serverId: 's1',
    name: 'Too many errors',
    kind: 'threshold',
    filter: { level: 'error', metadata: { job: 'police' } },
    threshold: 5,
    windowSeconds: 300,
    webhookIds: ['w1'],
    cooldownSeconds: 60,
    enabled: true,
    state: 'ok',
    lastFiredAt: null,
    lastResolvedAt: null,
    createdAt: '2026-01-01T10:00:00.000Z',
    ...over,
  };
}

function webhook(id: string, url: string): ApiWebhook {
  return {
    id,
    url,
    platform: 'discord',
    chat_id: null,
    event_type: null,
    log_level: null,
    resource: null,
    enabled: true,
    disabled_reason: null,
    last_attempt_time: null,
    last_success: null,
    last_status_code: null,
    failed_attempts: 0,
    dead_letters_count: 0,
    dead_letters: [],
    created_at: '2026-01-01T10:00:00.000Z',
  };
}

const WEBHOOKS: WebhookList = { webhooks: [webhook('w1', 'https://discord.com/api/webhooks/1/SECRET'), webhook('w2', 'https://example.com/hook/2')], limit: 2, count: 2 };

function api({ list = { alerts: [rule()], limit: 3, count: 1 } as AlertList, extra = {} as Parameters<typeof mockApi>[0] } = {}) {
  return mockApi({
    'GET /auth/me': () => json(meAnswer()),
    'GET /server/usage/s1': () => json(serverUsage({ maxWebhooks: 2, maxAlertRules: 3 })),
    'GET /alerts': () => json(list),
    'GET /webhooks': () => json(WEBHOOKS),
    'GET /webhooks/options': () => json({ eventTypes: ['Kill'], logLevels: ['info', 'warn', 'error', 'fatal', 'debug'], resources: ['pvp'] }),
    ...extra,
  });
}

const render = () => renderScreen(<AlertsPage />, { path: '/alerts', session: SIGNED_IN });
const sent = async (seen: Request[], method: string, path: string) => {
  const request = seen.find((r) => r.method === method && new URL(r.url).pathname === `/api${path}`);
  return request ? ((await request.clone().json()) as Record<string, unknown>) : undefined;
};

describe('alert rule list', () => {
  it("shows 'n / limit alert rules used', each rule's state, condition, filter and the webhooks it notifies (URL masked)", async () => {
    api({ list: { alerts: [rule(), rule({ id: 'a2', name: 'Server silent', kind: 'absence', threshold: null, filter: {}, state: 'firing', enabled: false, webhookIds: ['gone'] })], limit: 3, count: 2 } });
    render();
    expect(await screen.findByText('2 / 3 alert rules used')).toBeTruthy();
    const [first, second] = screen.getAllByTestId('alert-row');
    expect(within(first!).getByTestId('alert-state').textContent).toBe('OK');
    expect(first!.textContent).toContain('At least 5 matching logs in 300 s');
    expect(first!.textContent).toContain('level error · metadata job=police');
    expect(await within(first!).findByText('Discord · https://discord.com/••••')).toBeTruthy();
    expect(first!.textContent).not.toContain('SECRET');
    expect(within(second!).getByTestId('alert-state').textContent).toBe('FiringDisabled');
    expect(second!.textContent).toContain('No matching log for 300 s');
    expect(second!.textContent).toContain('Every log');
    expect(second!.textContent).toContain('A deleted webhook');
  });

  it('opens and closes a rule’s history, newest first, with the sample logs', async () => {
    const history: AlertHistory = {
      events: [
        { at: '2026-01-02T10:05:00.000Z', state: 'resolved', count: 0, sample: [] },
        { at: '2026-01-02T10:00:00.000Z', state: 'firing', count: 7, sample: [{ id: 'l1', createdAt: '2026-01-02T10:00:00.000Z', level: 'error', type: 'Crash', resource: 'core', message: 'boom' }] },
      ],
    };
    const seen = api({ extra: { 'GET /alerts/a1/history': () => json(history) } });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Show history' }));
    const events = await screen.findAllByTestId('alert-event');
    expect(events.map((e) => e.querySelector('strong')?.textContent)).toEqual(['Resolved', 'Fired']);
    expect(events[1]!.textContent).toContain('count 7');
    expect(events[1]!.textContent).toContain('boom');
    expect(seen.some((r) => r.method === 'GET' && new URL(r.url).pathname === '/api/alerts/a1/history')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Hide history' }));
    expect(screen.queryByTestId('alert-event')).toBeNull();
  });

  it("says so when a rule never fired", async () => {
    api({ extra: { 'GET /alerts/a1/history': () => json({ events: [] }) } });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Show history' }));
    expect(await screen.findByText('This rule has not fired yet.')).toBeTruthy();
  });

  it("tests a rule: 'Test sent 🚀' when every webhook took it, the receiver's reason when one did not, the server's sentence when refused", async () => {
    let answer = json({ results: [{ webhookId: 'w1', ok: true, statusCode: 204, error: null }] });
    const seen = api({ extra: { 'POST /alerts/a1/test': () => answer } });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Send test' }));
    expect(await screen.findByText(ALERT_TEXT.testSent)).toBeTruthy();
    expect(seen.filter((r) => r.method === 'POST' && new URL(r.url).pathname === '/api/alerts/a1/test')).toHaveLength(1);
    answer = json({ results: [{ webhookId: 'w1', ok: false, statusCode: 500, error: 'The receiver answered HTTP 500.' }] });
    fireEvent.click(screen.getByRole('button', { name: 'Send test' }));
    expect(await screen.findByText(`${ALERT_TEXT.testFailed} The receiver answered HTTP 500.`)).toBeTruthy();
    answer = json({ error: 'The rule has no webhooks to notify.', message: 'x' }, { status: 400 });
    fireEvent.click(screen.getByRole('button', { name: 'Send test' }));
    expect(await screen.findByText('The rule has no webhooks to notify.')).toBeTruthy();
  });

  it('edits inline (the whole rule is sent, a webhook unticked is left out) and deletes after a confirmation', async () => {
    const seen = api({ extra: { 'PUT /alerts/a1': () => json({ alert: rule() }), 'DELETE /alerts/a1': () => json({ message: 'Alert rule deleted' }) } });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Save' });
    expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('Too many errors');
    fireEvent.change(within(form).getByLabelText('Threshold (logs)'), { target: { value: '8' } });
    fireEvent.click(within(form).getByLabelText('Discord · https://discord.com/••••'));
    fireEvent.click(within(form).getByLabelText('Discord · https://example.com/••••'));
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(ALERT_TEXT.updated)).toBeTruthy();
    expect(await sent(seen, 'PUT', '/alerts/a1')).toEqual({
      name: 'Too many errors',
      kind: 'threshold',
      filter: { level: 'error', metadata: { job: 'police' } },
      threshold: 8,
      windowSeconds: 300,
      webhookIds: ['w2'],
      cooldownSeconds: 60,
      enabled: true,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByText('Delete this alert rule and its history?')).toBeTruthy();
    expect(seen.some((r) => r.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm delete' }));
    expect(await screen.findByText(ALERT_TEXT.deleted)).toBeTruthy();
    expect(seen.some((r) => r.method === 'DELETE' && new URL(r.url).pathname === '/api/alerts/a1')).toBe(true);
  });

  it("toasts 'Update failed ❌' with the server's sentence in the edit form", async () => {
    api({ extra: { 'PUT /alerts/a1': () => json({ error: ALERT_UNKNOWN_WEBHOOK, message: 'Bad Request' }, { status: 400 }) } });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    fireEvent.click(within(screen.getByRole('form', { name: 'Save' })).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(ALERT_TEXT.updateFailed)).toBeTruthy();
    expect(await within(screen.getByRole('form', { name: 'Save' })).findByText(ALERT_UNKNOWN_WEBHOOK)).toBeTruthy();
  });
});

describe('add form', () => {
  it('sends nothing while the form is incomplete and says what is missing', async () => {
    const seen = api();
    render();
    const form = await screen.findByRole('form', { name: 'Add alert rule' });
    fireEvent.click(within(form).getByRole('button', { name: 'Add alert rule' }));
    expect(await within(form).findByText(ALERT_TEXT.nameRequired)).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Errors' } });
    fireEvent.change(within(form).getByLabelText('Metadata (key=value, one a line)'), { target: { value: 'no equals sign' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add alert rule' }));
    expect(await within(form).findByText(ALERT_TEXT.metadataLine)).toBeTruthy();
    expect(seen.some((r) => r.method === 'POST')).toBe(false);
  });

  it("adds a rule with the filter fields and the picked webhooks (empty fields left out), toasts 'Alert rule added ✅' and empties the form", async () => {
    const seen = api({ extra: { 'POST /alerts': () => json({ alert: rule({ id: 'a2' }) }, { status: 201 }) } });
    render();
    const form = await screen.findByRole('form', { name: 'Add alert rule' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: ' Kills spike ' } });
    fireEvent.change(within(form).getByLabelText('Threshold (logs)'), { target: { value: '20' } });
    fireEvent.change(within(form).getByLabelText('Window (seconds)'), { target: { value: '120' } });
    fireEvent.change(within(form).getByLabelText('Log level'), { target: { value: 'warn' } });
    fireEvent.change(within(form).getByLabelText('Event type'), { target: { value: 'Kill' } });
    fireEvent.change(within(form).getByLabelText('Message contains'), { target: { value: 'headshot' } });
    fireEvent.change(within(form).getByLabelText('Metadata (key=value, one a line)'), { target: { value: 'job = police\n\nzone=a=b' } });
    fireEvent.click(await within(form).findByLabelText('Discord · https://discord.com/••••'));
    fireEvent.click(within(form).getByRole('button', { name: 'Add alert rule' }));
    expect(await screen.findByText(ALERT_TEXT.added)).toBeTruthy();
    expect(await sent(seen, 'POST', '/alerts')).toEqual({
      serverId: 's1',
      name: 'Kills spike',
      kind: 'threshold',
      filter: { level: 'warn', type: 'Kill', search: 'headshot', metadata: { job: 'police', zone: 'a=b' } },
      threshold: 20,
      windowSeconds: 120,
      webhookIds: ['w1'],
      cooldownSeconds: 0,
      enabled: true,
    });
    expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('');
  });

  it('sends an absence rule without a threshold (the field is hidden)', async () => {
    const seen = api({ extra: { 'POST /alerts': () => json({ alert: rule({ id: 'a2' }) }, { status: 201 }) } });
    render();
    const form = await screen.findByRole('form', { name: 'Add alert rule' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Silent' } });
    fireEvent.change(within(form).getByLabelText('Kind'), { target: { value: 'absence' } });
    expect(within(form).queryByLabelText('Threshold (logs)')).toBeNull();
    fireEvent.click(within(form).getByRole('button', { name: 'Add alert rule' }));
    expect(await screen.findByText(ALERT_TEXT.added)).toBeTruthy();
    expect(await sent(seen, 'POST', '/alerts')).toMatchObject({ kind: 'absence', threshold: null, filter: {}, webhookIds: [] });
  });

  it("toasts 'Failed to add alert rule ❌' and shows the server's sentence in the form", async () => {
    const reason = 'The window must be between 60 and 86400 seconds.';
    api({ extra: { 'POST /alerts': () => json({ error: reason, message: 'Bad Request' }, { status: 400 }) } });
    render();
    const form = await screen.findByRole('form', { name: 'Add alert rule' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Errors' } });
    fireEvent.change(within(form).getByLabelText('Window (seconds)'), { target: { value: '5' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add alert rule' }));
    expect(await screen.findByText(ALERT_TEXT.addFailed)).toBeTruthy();
    expect(await within(form).findByText(reason)).toBeTruthy();
  });

  it('disables the add button at the limit', async () => {
    api({ list: { alerts: [rule()], limit: 1, count: 1 } });
    render();
    expect(await screen.findByText('1 / 1 alert rules used')).toBeTruthy();
    const button = within(screen.getByRole('form', { name: 'Add alert rule' })).getByRole('button', { name: 'Add alert rule' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
  });
});

describe('who sees the screen', () => {
  it('redirects to /dashboard when the tier allows no rule', async () => {
    api({ list: { alerts: [], limit: 0, count: 0 } });
    render();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
  });

  it('redirects to /dashboard when the server refuses the member (403)', async () => {
    api({ extra: { 'GET /alerts': () => json({ error: 'Forbidden', message: 'x' }, { status: 403 }) } });
    render();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
  });
});

describe('form helpers', () => {
  it('round-trip a rule, describe its condition and filter, and refuse a threshold below 1', () => {
    const values = fromAlertRule(rule());
    expect(toAlertBody(values)).toEqual({ name: 'Too many errors', kind: 'threshold', filter: { level: 'error', metadata: { job: 'police' } }, threshold: 5, windowSeconds: 300, webhookIds: ['w1'], cooldownSeconds: 60, enabled: true });
    expect(alertFormProblem({ ...EMPTY_ALERT_FORM, name: 'x', threshold: '0' })).toBe(ALERT_TEXT.thresholdRequired);
    expect(alertFormProblem({ ...EMPTY_ALERT_FORM, name: 'x', kind: 'absence', threshold: '' })).toBeNull();
    expect(alertFormProblem({ ...EMPTY_ALERT_FORM, name: 'x', windowSeconds: '1.5' })).toBe(ALERT_TEXT.windowRequired);
    expect(conditionText({ kind: 'threshold', threshold: 1, windowSeconds: 60 })).toBe('At least 1 matching log in 60 s');
    expect(filterSummary({ resource: 'pvp', search: 'x' })).toBe('resource pvp · message contains "x"');
  });
});
