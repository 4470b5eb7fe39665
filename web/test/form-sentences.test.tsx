// In the component tree: the forms' own checks say what the server says for the same
// rule (one formatter, @skald/contracts validation-messages.ts), the server's sentence reaches the screen,
// and a validator's own wording never does (the screen's fallback shows instead).
import { validationSentence } from '@skald/contracts/api';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorText, messageText } from '../src/app/errors.ts';
import ForgotPasswordPage from '../src/features/auth/ForgotPasswordPage.tsx';
import LoginPage from '../src/features/auth/LoginPage.tsx';
import RegisterPage, { REGISTER_FALLBACK_ERROR } from '../src/features/auth/RegisterPage.tsx';
import ResetPasswordPage from '../src/features/auth/ResetPasswordPage.tsx';
import CreateServerPage from '../src/features/servers/CreateServerPage.tsx';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

const required = (field: string) => validationSentence({ field, rule: 'required' });

describe("the forms' own checks use the server's sentences", () => {
  it('register, login, forgot and reset ask for each empty field as the server would, sending nothing', async () => {
    const seen = mockApi({});
    const register = renderScreen(<RegisterPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    for (const field of ['email', 'username', 'password']) expect(await screen.findByText(required(field))).toBeTruthy();
    register.unmount();

    const login = renderScreen(<LoginPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    for (const field of ['username', 'password']) expect(await screen.findByText(required(field))).toBeTruthy();
    login.unmount();

    const forgot = renderScreen(<ForgotPasswordPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText(required('email'))).toBeTruthy();
    forgot.unmount();

    renderScreen(<ResetPasswordPage />, { path: '/reset-password/tok', route: '/reset-password/:token' });
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText(required('password'))).toBeTruthy();
    expect(seen).toHaveLength(0);
  });

  it('the sentences are the ones a person reads', () => {
    expect([required('email'), required('username'), required('password'), required('currentPassword'), required('newPassword')]).toEqual([
      'Please enter an e-mail address.',
      'Please enter your username.',
      'Please enter your password.',
      'Please enter your current password.',
      'Please enter a new password.',
    ]);
  });
});

describe("the server's sentence reaches the screen; a validator's wording never does", () => {
  it("register shows the server's sentence, and its fallback instead of a validator message", async () => {
    let answer = { error: 'Username must be at least 3 characters.', message: 'Username must be at least 3 characters.' };
    mockApi({ 'POST /auth/register': () => json(answer, { status: 400 }) });
    renderScreen(<RegisterPage />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'a@x.io' } });
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'ab' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Username must be at least 3 characters.')).toBeTruthy();

    answer = { error: 'Bad Request', message: 'username must NOT have fewer than 3 characters' };
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    // `message` is raw: register falls back to `error` ('Bad Request' is no validator text), as docs/spec/part-1.txt section 8 orders.
    expect(await screen.findByText('Bad Request')).toBeTruthy();
    expect(screen.queryByText(/must NOT/)).toBeNull();

    answer = { error: 'username must NOT have fewer than 3 characters', message: 'username must NOT have fewer than 3 characters' };
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText(REGISTER_FALLBACK_ERROR)).toBeTruthy();
    expect(screen.queryByText(/must NOT/)).toBeNull();
  });

  it('create server shows the fallback for a validator message', async () => {
    mockApi({ 'POST /server/servers': () => json({ error: 'name must NOT have more than 64 characters', message: 'name must NOT have more than 64 characters' }, { status: 400 }) });
    renderScreen(<CreateServerPage />, { session: SIGNED_IN });
    fireEvent.change(screen.getByLabelText('Server name'), { target: { value: 'x'.repeat(70) } });
    fireEvent.click(screen.getByRole('button', { name: 'Create server' }));
    expect(await screen.findByText('Failed to create server.')).toBeTruthy();
  });

  it('errorText and messageText pass over every validator wording', () => {
    const raw = ['platform must be equal to constant', 'username must match pattern "^[a-z]+$"', 'password is required', 'tier is not allowed', 'name must be string', 'interval_hours must be >= 1'];
    for (const text of raw) {
      const err = { status: 400, data: { error: text, message: text } };
      expect(errorText(err, 'fallback'), text).toBe('fallback');
      expect(messageText(err, 'fallback'), text).toBe('fallback');
    }
    expect(errorText({ status: 400, data: { error: 'Choose a platform from the list.' } }, 'fallback')).toBe('Choose a platform from the list.');
  });
});
