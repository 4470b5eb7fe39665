import type { MessageAnswer, MessageWithTokenAnswer, TwoFactorSetupAnswer } from '@skald/contracts/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import UserSettingsPage from '../src/features/user/UserSettingsPage.tsx';
import { meAnswer } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

const me = (twoFactor = false) => meAnswer({ twoFactor });

/** The JSON bodies the app sent to `METHOD /path`, in order. */
async function bodiesOf(seen: Request[], method: string, path: string): Promise<unknown[]> {
  const matching = seen.filter((r) => r.method === method && new URL(r.url).pathname === `/api${path}`);
  return Promise.all(matching.map((r) => r.clone().json() as Promise<unknown>));
}

async function renderSettings(handlers: Parameters<typeof mockApi>[0], twoFactor = false) {
  const seen = mockApi({ 'GET /auth/me': () => json(me(twoFactor)), ...handlers });
  const utils = renderScreen(<UserSettingsPage />, { path: '/user-settings', session: SIGNED_IN });
  await screen.findByRole('heading', { name: 'Change Username' });
  return { seen, ...utils };
}

describe('User settings: account forms (docs/spec/part-2.txt sections 5, 7, 8)', () => {
  it('changes the username and shows the server message', async () => {
    const { seen } = await renderSettings({ 'PATCH /user/username': () => json({ message: 'Username changed.' } satisfies MessageAnswer) });
    const field = screen.getByLabelText('Username') as HTMLInputElement;
    expect(field.value).toBe('ann');
    fireEvent.change(field, { target: { value: 'bea' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change Username' }));
    expect(await screen.findByText('Username changed.')).toBeTruthy();
    expect(await bodiesOf(seen, 'PATCH', '/user/username')).toEqual([{ username: 'bea' }]);
  });

  it('requires the username and sends nothing when it is empty', async () => {
    const { seen } = await renderSettings({});
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change Username' }));
    expect(await screen.findByText('Please enter your username.')).toBeTruthy();
    expect(seen.filter((r) => r.method === 'PATCH')).toHaveLength(0);
  });

  it('uses an e-mail field, requires it, and falls back to "Error while updating"', async () => {
    const { seen } = await renderSettings({ 'PATCH /user/email': () => json({}, { status: 500 }) });
    const field = screen.getByLabelText('E-mail') as HTMLInputElement;
    expect(field.type).toBe('email');
    expect(field.value).toBe('a@x.io');
    fireEvent.change(field, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change E-mail' }));
    expect(await screen.findByText('Please enter an e-mail address.')).toBeTruthy();
    expect(seen.filter((r) => r.method === 'PATCH')).toHaveLength(0);

    fireEvent.change(field, { target: { value: 'new@x.io' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change E-mail' }));
    expect(await screen.findByText('Error while updating')).toBeTruthy();
    expect(await bodiesOf(seen, 'PATCH', '/user/email')).toEqual([{ email: 'new@x.io' }]);
  });

  it('needs current and new password, sends both, shows the server error, and on success clears the fields and keeps the session with the new token', async () => {
    let answer = json({ error: 'Current password is wrong' }, { status: 400 });
    const { seen, store } = await renderSettings({ 'PATCH /user/password': () => answer });
    const current = screen.getByLabelText('Current password') as HTMLInputElement;
    const next = screen.getByLabelText('New password') as HTMLInputElement;
    expect(current.type).toBe('password');
    expect(next.type).toBe('password');

    fireEvent.change(next, { target: { value: 'n3w-secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Please enter your current password.')).toBeTruthy();
    expect(seen.filter((r) => r.method === 'PATCH')).toHaveLength(0);

    fireEvent.change(current, { target: { value: 'old-secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Current password is wrong')).toBeTruthy();
    expect(current.value).toBe('old-secret');

    answer = json({ message: 'Password changed.', token: 'after-password' } satisfies MessageWithTokenAnswer);
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password changed.')).toBeTruthy();
    // The server revoked every older token: the tab continues with the one it answered.
    expect(store.getState().session.token).toBe('after-password');
    expect(window.localStorage.getItem('token')).toBe('after-password');
    // antd remounts reset fields, so look the inputs up again.
    const valueOf = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;
    await waitFor(() => expect([valueOf('Current password'), valueOf('New password')]).toEqual(['', '']));
    expect(await bodiesOf(seen, 'PATCH', '/user/password')).toEqual([
      { currentPassword: 'old-secret', newPassword: 'n3w-secret' },
      { currentPassword: 'old-secret', newPassword: 'n3w-secret' },
    ]);
  });

  it('shows "Failed to gather information." when the current user cannot be loaded', async () => {
    mockApi({ 'GET /auth/me': () => json({ error: 'x' }, { status: 500 }) });
    renderScreen(<UserSettingsPage />, { path: '/user-settings', session: SIGNED_IN });
    expect(await screen.findByText('Failed to gather information.')).toBeTruthy();
  });
});

describe('User settings: enabling 2FA', () => {
  it('shows the QR code and the manual secret, then verifies a 6-digit code and stores the new token', async () => {
    let verifyAnswer = json({}, { status: 400 });
    const { seen, store } = await renderSettings({
      'GET /2fa/setup': () =>
        json({ qr: 'data:image/png;base64,AAAA', secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/Skald:ann?secret=JBSWY3DPEHPK3PXP', token: 'setup-token' } satisfies TwoFactorSetupAnswer),
      'POST /2fa/verify': () => verifyAnswer,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Enable 2FA' }));
    const qr = (await screen.findByAltText('2FA QR code')) as HTMLImageElement;
    expect(qr.getAttribute('src')).toBe('data:image/png;base64,AAAA');
    expect(screen.getByTestId('twofa-secret').textContent).toContain('JBSWY3DPEHPK3PXP');
    // The answer's `token` is the session, never something to show; it is stored (docs/spec/part-2.txt section 4).
    expect(screen.getByTestId('twofa-secret').textContent).not.toContain('setup-token');
    expect(store.getState().session.token).toBe('setup-token');

    const code = screen.getByPlaceholderText('Enter 6-digit code') as HTMLInputElement;
    expect(code.maxLength).toBe(6);
    fireEvent.change(code, { target: { value: '12a34 5678' } });
    expect(code.value).toBe('123456');

    fireEvent.change(code, { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and enable' }));
    expect(await screen.findByText('Please enter the complete 6-digit code')).toBeTruthy();
    expect(seen.filter((r) => r.url.includes('/2fa/verify'))).toHaveLength(0);

    fireEvent.change(code, { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and enable' }));
    expect((await screen.findAllByText('Verification failed')).length).toBeGreaterThan(0);

    verifyAnswer = json({ message: '2FA enabled.', token: 'rotated-token' } satisfies MessageWithTokenAnswer);
    fireEvent.click(screen.getByRole('button', { name: 'Verify and enable' }));
    expect(await screen.findByText('2FA successfully activated')).toBeTruthy();
    expect(store.getState().session.token).toBe('rotated-token');
    expect(window.localStorage.getItem('token')).toBe('rotated-token');
    expect(await bodiesOf(seen, 'POST', '/2fa/verify')).toEqual([{ token: '654321' }, { token: '654321' }]);
    // The refetched user must go out with the new token.
    await waitFor(() => expect(seen.filter((r) => r.url.endsWith('/auth/me')).at(-1)?.headers.get('Authorization')).toBe('Bearer rotated-token'));
  });
});

describe('User settings: disabling 2FA', () => {
  async function openDisable(handlers: Parameters<typeof mockApi>[0]) {
    const rendered = await renderSettings(handlers, true);
    fireEvent.click(screen.getByRole('button', { name: 'Disable 2FA' }));
    const dialog = await screen.findByRole('dialog');
    return { ...rendered, dialog, code: within(dialog).getByPlaceholderText('Enter 6-digit code') as HTMLInputElement };
  }

  it('refuses an empty code without asking or calling the server', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { seen, dialog, code } = await openDisable({});
    expect(code.maxLength).toBe(6);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(await within(dialog).findByText('Please enter your 2FA code.')).toBeTruthy();
    expect(confirm).not.toHaveBeenCalled();
    expect(seen.filter((r) => r.method === 'DELETE')).toHaveLength(0);
  });

  it('asks the browser confirmation and does nothing when it is declined', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { seen, dialog, code } = await openDisable({});
    fireEvent.change(code, { target: { value: '111222' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to disable 2FA?');
    expect(seen.filter((r) => r.method === 'DELETE')).toHaveLength(0);
  });

  it('falls back to "Disabling failed", then disables and stores the new token', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    let answer = json({}, { status: 400 });
    const { seen, dialog, code, store } = await openDisable({ 'DELETE /2fa/disable': () => answer });
    fireEvent.change(code, { target: { value: '111222' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(await within(dialog).findByText('Disabling failed')).toBeTruthy();

    answer = json({ message: '2FA disabled.', token: 'after-disable' } satisfies MessageWithTokenAnswer);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('2FA is disabled')).toBeTruthy();
    expect(store.getState().session.token).toBe('after-disable');
    expect(await bodiesOf(seen, 'DELETE', '/2fa/disable')).toEqual([{ token: '111222' }, { token: '111222' }]);
  });
});
