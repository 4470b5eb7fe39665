import type { ApiKeyResetAnswer, CleanupAnswer, LevelColors, RenameServerAnswer } from '@skald/contracts/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import SettingsPage from '../src/features/settings/SettingsPage.tsx';
import { changedColors, parseDays, pickerValue } from '../src/features/settings/settingsApi.ts';
import { LEVELS, levelColors, meAnswer } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';
import type { ServerRole } from '@skald/contracts/api';

function requestsTo(seen: Request[], method: string, path: string): Request[] {
  return seen.filter((r) => r.method === method && new URL(r.url).pathname === `/api${path}`);
}

async function renderSettings(handlers: Parameters<typeof mockApi>[0] = {}, serverRole: ServerRole = 'owner') {
  const seen = mockApi({
    'GET /auth/me': () => json(meAnswer({ serverRole })),
    'GET /settings/colors': () => json(levelColors()),
    'GET /settings/levels': () => json(LEVELS),
    ...handlers,
  });
  const utils = renderScreen(<SettingsPage />, { path: '/settings', session: SIGNED_IN });
  return { seen, ...utils };
}

describe('Server settings: access and states (docs/spec/part-1.txt section 2, docs/spec/part-2.txt section 2)', () => {
  it("shows 'Loading...' first, then the page titled with the server name", async () => {
    await renderSettings();
    expect(screen.getByText('Loading...')).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'Server settings: Alpha' })).toBeTruthy();
    for (const section of ['Colour settings', 'API key', 'Server Name', 'Delete Logs']) expect(screen.getByRole('heading', { level: 2, name: section })).toBeTruthy();
  });

  it("shows 'Failed to gather information.' when the colours cannot load", async () => {
    await renderSettings({ 'GET /settings/colors': () => json({ error: 'boom' }, { status: 500 }) });
    expect(await screen.findByText('Failed to gather information.')).toBeTruthy();
  });

  it('an admin sees every section but cannot reset the API key (owner only)', async () => {
    await renderSettings({}, 'admin');
    await screen.findByRole('heading', { level: 1, name: 'Server settings: Alpha' });
    expect(screen.queryByRole('button', { name: 'Reset' })).toBeNull();
    expect(screen.getByText('Only the server owner can reset the API key.')).toBeTruthy();
  });
});

describe('Server settings: Delete Logs (docs/spec/part-2.txt sections 5, 7)', () => {
  it('accepts whole numbers 0 or more only', () => {
    expect(parseDays('0')).toBe(0);
    expect(parseDays(' 30 ')).toBe(30);
    for (const bad of ['', '-1', '1.5', 'abc', '1e3', '99999999999999999999']) expect(parseDays(bad)).toBeNull();
  });

  it('disables the button with the spec message until the days are valid, confirms, then shows the count', async () => {
    const { seen } = await renderSettings({ 'DELETE /logs/cleanup': () => json({ deletedCount: 42 } satisfies CleanupAnswer) });
    await screen.findByRole('heading', { level: 1, name: 'Server settings: Alpha' });
    const button = screen.getByRole('button', { name: 'Delete Logs' }) as HTMLButtonElement;
    expect(screen.getByText('Insert a valid amount of days (0 or more)')).toBeTruthy();
    expect(button.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Days'), { target: { value: '-3' } });
    expect(button.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Days'), { target: { value: '30' } });
    expect(button.disabled).toBe(false);
    expect(screen.queryByText('Insert a valid amount of days (0 or more)')).toBeNull();
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Logs older than 30 days will be deleted/)).toBeTruthy();
    expect(requestsTo(seen, 'DELETE', '/logs/cleanup')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Logs deleted: 42')).toBeTruthy();
    const [sent] = requestsTo(seen, 'DELETE', '/logs/cleanup');
    expect(Object.fromEntries(new URL(sent!.url).searchParams)).toEqual({ serverId: 's1', days: '30' });
  });

  it("toasts 'Deleting logs failed.' when the server refuses", async () => {
    await renderSettings({ 'DELETE /logs/cleanup': () => json({ error: 'nope' }, { status: 500 }) });
    await screen.findByRole('heading', { level: 1, name: 'Server settings: Alpha' });
    fireEvent.change(screen.getByLabelText('Days'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Logs' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleting logs failed.')).toBeTruthy();
  });
});

describe('Server settings: API key reset (docs/spec/part-2.txt section 4)', () => {
  it('asks first, then shows the new key once, closed with "I have saved it"', async () => {
    const { seen } = await renderSettings({ 'POST /settings/api-key/reset': () => json({ apiKey: 'sk_new_key_123' } satisfies ApiKeyResetAnswer) });
    await screen.findByRole('heading', { level: 1, name: 'Server settings: Alpha' });
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    const confirm = await screen.findByRole('dialog', { name: 'Reset the API key?' });
    expect(requestsTo(seen, 'POST', '/settings/api-key/reset')).toHaveLength(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Reset' }));
    const shown = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(within(shown).getByTestId('api-key').textContent).toContain('sk_new_key_123');
    expect(new URL(requestsTo(seen, 'POST', '/settings/api-key/reset')[0]!.url).searchParams.get('serverId')).toBe('s1');
    fireEvent.click(within(shown).getByRole('button', { name: 'I have saved it' }));
    await waitFor(() => expect(screen.queryByText('sk_new_key_123')).toBeNull());
  });

  it("toasts 'Resetting API key failed.' and shows no key on failure", async () => {
    await renderSettings({ 'POST /settings/api-key/reset': () => json({ error: 'Forbidden' }, { status: 403 }) });
    await screen.findByRole('heading', { level: 1, name: 'Server settings: Alpha' });
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Resetting API key failed.')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Your new API key' })).toBeNull();
  });
});

describe('Server settings: name and colours (docs/spec/part-2.txt sections 2, 7, 8)', () => {
  it('renames through the Change Name dialog, then refreshes the server list', async () => {
    let meCalls = 0;
    const { seen } = await renderSettings({
      'GET /auth/me': () => {
        meCalls += 1;
        return json(meAnswer());
      },
      'PATCH /settings/server-name': () => json({ message: 'Server renamed', id: 's1', name: 'Beta' } satisfies RenameServerAnswer),
    });
    await screen.findByRole('heading', { level: 1, name: 'Server settings: Alpha' });
    fireEvent.click(screen.getByRole('button', { name: 'Change Name' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change Name' });
    fireEvent.change(within(dialog).getByLabelText('New name'), { target: { value: '  Beta ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Server renamed')).toBeTruthy();
    expect(await requestsTo(seen, 'PATCH', '/settings/server-name')[0]!.clone().json()).toEqual({ serverId: 's1', newName: 'Beta' });
    await waitFor(() => expect(meCalls).toBeGreaterThanOrEqual(2));
  });

  it("shows the server's error in the dialog, else 'Updating server name failed.'", async () => {
    let answer = json({ error: 'That server name is already taken.' }, { status: 409 });
    await renderSettings({ 'PATCH /settings/server-name': () => answer });
    await screen.findByRole('heading', { level: 1, name: 'Server settings: Alpha' });
    fireEvent.click(screen.getByRole('button', { name: 'Change Name' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change Name' });
    fireEvent.change(within(dialog).getByLabelText('New name'), { target: { value: 'Taken' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('That server name is already taken.')).toBeTruthy();
    answer = new Response('oops', { status: 500 });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Updating server name failed.')).toBeTruthy();
  });

  it('saves only the changed levels after a confirmation; a failure toasts "Saving failed."', async () => {
    let fail = false;
    const { seen } = await renderSettings({
      'PUT /settings/colors': async (request) => (fail ? json({}, { status: 500 }) : json({ ...levelColors(), ...((await request.clone().json()) as Partial<LevelColors>) })),
    });
    await screen.findByRole('heading', { level: 1, name: 'Server settings: Alpha' });
    const save = screen.getByRole('button', { name: 'Save colours' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('warn background colour'), { target: { value: '#ffcc00' } });
    fireEvent.click(save);
    const dialog = await screen.findByRole('dialog', { name: 'Save colours?' });
    expect(requestsTo(seen, 'PUT', '/settings/colors')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Colours saved.')).toBeTruthy();
    const [sent] = requestsTo(seen, 'PUT', '/settings/colors');
    expect(await sent!.clone().json()).toEqual({ warn: { bg_color: '#ffcc00', text_color: '#111111' } });
    expect(new URL(sent!.url).searchParams.get('serverId')).toBe('s1');

    fail = true;
    fireEvent.change(screen.getByLabelText('info text colour'), { target: { value: '#000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save colours' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Save colours?' })).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saving failed.')).toBeTruthy();
  });

  it('shows picker values as #rrggbb and keeps untouched levels out of the update', () => {
    expect(pickerValue('#AbC')).toBe('#aabbcc');
    expect(pickerValue('#11223344')).toBe('#112233');
    const saved = levelColors({ info: { bg_color: '#fff8', text_color: '#000' } });
    expect(changedColors(saved, { ...saved })).toEqual({});
  });
});
