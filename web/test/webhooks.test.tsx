// The /webhooks screen (docs/spec/part-1.txt sections 2, 4, 5, 8): 'n / limit webhooks used', the add form (empty
// filters as null, nothing sent without a URL, the telegram chat_id message as a success-style toast, the
// add button disabled at the limit), inline edit, delete confirmation, last attempt, dead letters with
// replay, test, every toast as written, and the redirect to /dashboard when the limit is 0.
import type { ApiWebhook, WebhookList, WebhookOptions } from '@skald/contracts/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import WebhooksPage from '../src/features/webhooks/WebhooksPage.tsx';
import { lastAttemptText, maskUrl, toBody, WEBHOOK_TEXT } from '../src/features/webhooks/webhookForm.ts';
import { meAnswer, serverUsage } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

function webhook(over: Partial<ApiWebhook> = {}): ApiWebhook {
  return {
    id: 'w1',
    url: 'https://discord.com/api/webhooks/1/SECRET',
    platform: 'discord',
    chat_id: null,
    event_type: null,
    log_level: 'error',
    resource: null,
    enabled: true,
    disabled_reason: null,
    last_attempt_time: '2026-01-02T10:00:00.000Z',
    last_success: false,
    last_status_code: 500,
    failed_attempts: 3,
    dead_letters_count: 1,
    dead_letters: [{ id: 'd1', error_message: 'The receiver answered HTTP 500 (after 3 attempts)', payload: '{"embeds":[]}', failed_at: '2026-01-02T10:00:00.000Z' }],
    created_at: '2026-01-01T10:00:00.000Z',
    ...over,
  };
}

const OPTIONS: WebhookOptions = { eventTypes: ['Kill'], logLevels: ['info', 'warn', 'error', 'fatal', 'debug'], resources: ['pvp'] };

function api({ list = { webhooks: [webhook()], limit: 2, count: 1 } as WebhookList, extra = {} as Parameters<typeof mockApi>[0] } = {}) {
  return mockApi({
    'GET /auth/me': () => json(meAnswer()),
    'GET /server/usage/s1': () => json(serverUsage({ maxWebhooks: list.limit })),
    'GET /webhooks': () => json(list),
    'GET /webhooks/options': () => json(OPTIONS),
    ...extra,
  });
}

const render = () => renderScreen(<WebhooksPage />, { path: '/webhooks', session: SIGNED_IN });
const sent = async (seen: Request[], method: string, path: string) => {
  const request = seen.find((r) => r.method === method && new URL(r.url).pathname === `/api${path}`);
  return request ? ((await request.clone().json()) as Record<string, unknown>) : undefined;
};

describe('webhook list', () => {
  it("shows 'n / limit webhooks used', the masked URL, the filters, the last attempt and failed attempts", async () => {
    api();
    render();
    expect(await screen.findByText('1 / 2 webhooks used')).toBeTruthy();
    const row = screen.getByTestId('webhook-row');
    expect(within(row).getByText('https://discord.com/••••')).toBeTruthy();
    expect(row.textContent).not.toContain('SECRET');
    expect(within(row).getByTestId('last-attempt').textContent).toContain('Failed (500)');
    expect(within(row).getByTestId('failed-attempts').textContent).toBe('3');
  });

  it('shows and hides the dead letters; a replay toasts as the spec writes it', async () => {
    const seen = api({ extra: { 'POST /webhooks/w1/replay/d1': () => json({ message: 'Replay sent', status_code: 200 }) } });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Show dead letters (1)' }));
    expect(screen.getByText('The receiver answered HTTP 500 (after 3 attempts)')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Replay' }));
    expect(await screen.findByText(WEBHOOK_TEXT.replaySent)).toBeTruthy();
    expect(seen.some((r) => r.method === 'POST' && r.url.endsWith('/webhooks/w1/replay/d1'))).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Hide dead letters' }));
    expect(screen.queryByText('The receiver answered HTTP 500 (after 3 attempts)')).toBeNull();
  });

  it("toasts 'Replay failed ❌', 'Test sent 🚀' and 'Webhook test failed ❌'", async () => {
    let testOk = true;
    api({
      extra: {
        'POST /webhooks/w1/replay/d1': () => json({ error: 'Replay failed', message: 'down' }, { status: 502 }),
        'POST /webhooks/w1/test': () => (testOk ? json({ message: 'Test sent', status_code: 200 }) : json({ error: 'Webhook test failed', message: 'x' }, { status: 502 })),
      },
    });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Show dead letters (1)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Replay' }));
    expect(await screen.findByText(WEBHOOK_TEXT.replayFailed)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send test' }));
    expect(await screen.findByText(WEBHOOK_TEXT.testSent)).toBeTruthy();
    testOk = false;
    fireEvent.click(screen.getByRole('button', { name: 'Send test' }));
    expect(await screen.findByText(WEBHOOK_TEXT.testFailed)).toBeTruthy();
  });

  it('edits inline (filters emptied are sent as null) and deletes after a confirmation', async () => {
    const seen = api({
      extra: {
        'PUT /webhooks/w1': () => json({ webhook: webhook(), secret: null }),
        'DELETE /webhooks/w1': () => json({ message: 'Webhook deleted' }),
      },
    });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Save' });
    fireEvent.change(within(form).getByLabelText('Log level'), { target: { value: '' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(WEBHOOK_TEXT.updated)).toBeTruthy();
    expect(await sent(seen, 'PUT', '/webhooks/w1')).toEqual({ url: 'https://discord.com/api/webhooks/1/SECRET', platform: 'discord', chat_id: null, event_type: null, log_level: null, resource: null });

    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByText('Delete this webhook?')).toBeTruthy();
    expect(seen.some((r) => r.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm delete' }));
    expect(await screen.findByText(WEBHOOK_TEXT.deleted)).toBeTruthy();
  });

  it("toasts 'Update failed ❌' with the server's reason in the edit form, and 'Failed to delete ❌'", async () => {
    const reason = 'Chat ID must be at most 256 characters.';
    api({ extra: { 'PUT /webhooks/w1': () => json({ error: reason, message: reason }, { status: 400 }), 'DELETE /webhooks/w1': () => json({ error: 'x', message: 'x' }, { status: 500 }) } });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    fireEvent.click(within(screen.getByRole('form', { name: 'Save' })).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(WEBHOOK_TEXT.updateFailed)).toBeTruthy();
    expect(await within(screen.getByRole('form', { name: 'Save' })).findByText(reason)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm delete' }));
    expect(await screen.findByText(WEBHOOK_TEXT.deleteFailed)).toBeTruthy();
  });
});

describe('add form', () => {
  it('sends nothing without a URL; telegram without chat_id shows the spec text as a success toast', async () => {
    const seen = api();
    render();
    const form = await screen.findByRole('form', { name: 'Add webhook' });
    fireEvent.click(within(form).getByRole('button', { name: 'Add webhook' }));
    fireEvent.change(within(form).getByLabelText('URL'), { target: { value: 'https://api.telegram.org/bot1:x/sendMessage' } });
    fireEvent.change(within(form).getByLabelText('Platform'), { target: { value: 'telegram' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add webhook' }));
    const toast = await screen.findByText(WEBHOOK_TEXT.telegramChatId);
    expect(toast.closest('.ant-message-success')).not.toBeNull();
    expect(seen.some((r) => r.method === 'POST')).toBe(false);
  });

  it("adds with empty filters as null, toasts 'Webhook added ✅', shows a generic secret once", async () => {
    const seen = api({ extra: { 'POST /webhooks': () => json({ webhook: webhook({ id: 'w2', platform: 'generic' }), secret: 'whsec_abc' }, { status: 201 }) } });
    render();
    const form = await screen.findByRole('form', { name: 'Add webhook' });
    fireEvent.change(within(form).getByLabelText('URL'), { target: { value: ' https://example.com/hook ' } });
    fireEvent.change(within(form).getByLabelText('Platform'), { target: { value: 'generic' } });
    fireEvent.change(within(form).getByLabelText('Event type'), { target: { value: 'Kill' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add webhook' }));
    expect(await screen.findByText(WEBHOOK_TEXT.added)).toBeTruthy();
    expect(await sent(seen, 'POST', '/webhooks')).toEqual({ serverId: 's1', url: 'https://example.com/hook', platform: 'generic', chat_id: null, event_type: 'Kill', log_level: null, resource: null });
    expect(screen.getByTestId('signing-secret').textContent).toBe('whsec_abc');
  });

  it("toasts 'Failed to add webhook ❌' when the server refuses, and shows its reason in the form until the next try", async () => {
    const reason = 'The destination 10.0.0.1 is not allowed: it is a private network address. Use a public host name or IP address.';
    let answer = json({ error: reason, message: reason }, { status: 400 });
    api({ extra: { 'POST /webhooks': () => answer } });
    render();
    const form = await screen.findByRole('form', { name: 'Add webhook' });
    fireEvent.change(within(form).getByLabelText('URL'), { target: { value: 'http://10.0.0.1/' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add webhook' }));
    expect(await screen.findByText(WEBHOOK_TEXT.addFailed)).toBeTruthy();
    expect(await within(form).findByText(reason)).toBeTruthy();
    // A validator's own wording is never shown: only the spec's toast then.
    answer = json({ error: 'platform must be equal to constant', message: 'platform must be equal to constant' }, { status: 400 });
    fireEvent.click(within(form).getByRole('button', { name: 'Add webhook' }));
    await waitFor(() => expect(within(form).queryByText(reason)).toBeNull());
    expect(screen.queryByText(/must be equal to constant/)).toBeNull();
  });

  it('disables the add button at the limit', async () => {
    api({ list: { webhooks: [webhook(), webhook({ id: 'w2' })], limit: 2, count: 2 } });
    render();
    expect(await screen.findByText('2 / 2 webhooks used')).toBeTruthy();
    const button = within(screen.getByRole('form', { name: 'Add webhook' })).getByRole('button', { name: 'Add webhook' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
  });

  it('redirects to /dashboard when the limit is 0', async () => {
    api({ list: { webhooks: [], limit: 0, count: 0 } });
    render();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
  });
});

describe('view helpers', () => {
  it("describe the last attempt as success, failed with a status, or 'no response'", () => {
    expect(lastAttemptText({ last_attempt_time: null, last_success: null, last_status_code: null })).toBe('Never');
    expect(lastAttemptText({ last_attempt_time: 'x', last_success: true, last_status_code: 204 })).toBe('Success');
    expect(lastAttemptText({ last_attempt_time: 'x', last_success: false, last_status_code: null })).toBe('Failed (no response)');
    expect(maskUrl('https://hooks.slack.com/services/T1/B2/xyz')).toBe('https://hooks.slack.com/••••');
    expect(toBody({ url: 'u', platform: 'slack', chat_id: 'ignored', event_type: ' ', log_level: '', resource: 'pvp' })).toEqual({ url: 'u', platform: 'slack', chat_id: null, event_type: null, log_level: null, resource: 'pvp' });
  });
});
