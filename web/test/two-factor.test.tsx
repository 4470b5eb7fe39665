import type { LoginAnswer, SessionAnswer } from '@skald/contracts/api';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import LoginPage from '../src/features/auth/LoginPage.tsx';
import { digitsFromPaste, emptyCode, TwoFactorCodeInput } from '../src/features/auth/TwoFactorCodeInput.tsx';
import { json, mockApi, renderScreen } from './helpers.tsx';

function Harness() {
  const [code, setCode] = useState(emptyCode);
  return (
    <>
      <TwoFactorCodeInput value={code} onChange={setCode} />
      <output data-testid="code">{code.map((d) => d || '_').join('')}</output>
    </>
  );
}

const boxes = () => screen.getAllByRole('textbox') as HTMLInputElement[];

describe('2FA code boxes (docs/spec/part-1.txt section 5)', () => {
  it('accepts digits only and advances to the next box', () => {
    render(<Harness />);
    fireEvent.change(boxes()[0]!, { target: { value: 'a' } });
    expect(screen.getByTestId('code').textContent).toBe('______');
    fireEvent.change(boxes()[0]!, { target: { value: '4' } });
    expect(screen.getByTestId('code').textContent).toBe('4_____');
    expect(document.activeElement).toBe(boxes()[1]);
  });

  it('backspace in an empty box clears and focuses the previous one; arrows move', () => {
    render(<Harness />);
    fireEvent.change(boxes()[0]!, { target: { value: '1' } });
    fireEvent.change(boxes()[1]!, { target: { value: '2' } });
    fireEvent.keyDown(boxes()[2]!, { key: 'Backspace' });
    expect(screen.getByTestId('code').textContent).toBe('1_____');
    expect(document.activeElement).toBe(boxes()[1]);
    fireEvent.keyDown(boxes()[1]!, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(boxes()[0]);
    fireEvent.keyDown(boxes()[0]!, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(boxes()[1]);
  });

  it('pasting strips non-digits and keeps at most 6', () => {
    expect(digitsFromPaste('12-34 56789')).toEqual(['1', '2', '3', '4', '5', '6']);
    render(<Harness />);
    fireEvent.paste(boxes()[0]!, { clipboardData: { getData: () => ' 98a76 ' } });
    expect(screen.getByTestId('code').textContent).toBe('9876__');
  });
});

describe('login with 2FA', () => {
  it('asks for the complete code, sends the pre-token and stores the final token', async () => {
    const seen = mockApi({
      'POST /auth/login': () => json({ twofa_required: true, pre_token: 'pre-1' } satisfies LoginAnswer),
      'POST /auth/2fa-login': () => json({ token: 'final', servers: [{ id: 's9', name: 'Nine', role: 'owner' }] } satisfies SessionAnswer),
    });
    const { store } = renderScreen(<LoginPage />, { path: '/login', route: '/login' });
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'ann' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Enter 2FA code')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Verify 2FA' }));
    expect(await screen.findByText('Please enter the complete 6-digit code')).toBeTruthy();

    fireEvent.paste(boxes()[0]!, { clipboardData: { getData: () => '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify 2FA' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
    const body = (await seen.find((r) => r.url.endsWith('/2fa-login'))!.clone().json()) as unknown;
    expect(body).toEqual({ token: 'pre-1', code: '123456' });
    expect(store.getState().session).toMatchObject({ token: 'final', serverId: 's9', serverName: 'Nine' });
    expect(window.localStorage.getItem('token')).toBe('final');
  });

  it('shows the server error field when login fails', async () => {
    mockApi({ 'POST /auth/login': () => json({ error: 'Invalid credentials' }, { status: 401 }) });
    renderScreen(<LoginPage />, { path: '/login', route: '/login' });
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'ann' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'bad' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Invalid credentials')).toBeTruthy();
  });

  it('falls back to "Invalid 2FA code" and Back to login returns to the credentials form', async () => {
    mockApi({
      'POST /auth/login': () => json({ twofa_required: true, pre_token: 'p' } satisfies LoginAnswer),
      'POST /auth/2fa-login': () => json({}, { status: 400 }),
    });
    renderScreen(<LoginPage />, { path: '/login', route: '/login' });
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'ann' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    await screen.findByText('Enter 2FA code');
    fireEvent.paste(boxes()[0]!, { clipboardData: { getData: () => '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify 2FA' }));
    expect(await screen.findByText('Invalid 2FA code')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back to login' }));
    expect(screen.queryByText('Invalid 2FA code')).toBeNull();
    expect(screen.getByLabelText('Username')).toBeTruthy();
  });

  it('redirects to /dashboard when a token is already stored', () => {
    mockApi({});
    renderScreen(<LoginPage />, { path: '/login', route: '/login', session: { token: 't', serverId: null, serverName: null } });
    expect(screen.getByTestId('location').textContent).toBe('/dashboard');
  });
});
