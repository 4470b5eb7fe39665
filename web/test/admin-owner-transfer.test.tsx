import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminServerUsers } from '@skald/contracts/api';
import AdminServerPage from '../src/features/admin/AdminServerPage.tsx';
import { adminServerDetail, meAnswer } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

const DETAIL = adminServerDetail({ userCount: 2 });

// The admin read model still answers the roles from before the change (it follows auth a moment later).
const MEMBERS: AdminServerUsers = {
  users: [
    { id: 'u1', username: 'ann', email: 'a@x.io', role: 'owner' },
    { id: 'u2', username: 'bob', email: 'b@x.io', role: 'user' },
  ],
};

function serverApi(put: () => Response) {
  return mockApi({
    'GET /auth/me': () => json(meAnswer({ role: 'admin' })),
    'GET /admin/servers/s1': () => json(DETAIL),
    'GET /admin/tiers': () => json({ tiers: [{ key: 'pro', label: 'Pro' }] }),
    'GET /admin/servers/s1/users': () => json(MEMBERS),
    'PUT /admin/servers/s1/users/u2': put,
  });
}

const rowOf = (email: string): HTMLElement => screen.getAllByTestId('admin-member-row').find((r) => r.dataset.user === email)!;

describe('admin server users: giving the owner role (docs/spec/part-2.txt sections 2, 6, 8)', () => {
  it('sends role owner, toasts the spec text and shows the new owner first and the previous owner as admin', async () => {
    const seen = serverApi(() => json({ message: 'Succesfully changed user role' }));
    renderScreen(<AdminServerPage />, { path: '/admin/servers/s1', route: '/admin/servers/:id', session: SIGNED_IN });
    const select = await screen.findByRole('combobox', { name: 'Role of b@x.io' });
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['user', 'admin', 'owner']);
    // The owner's row has no role selector: the owner's role changes only by giving another member the owner role.
    expect(within(rowOf('a@x.io')).queryByRole('combobox')).toBeNull();
    fireEvent.change(select, { target: { value: 'owner' } });
    expect(await screen.findByText('Succesfully changed user role')).toBeTruthy();
    const put = seen.find((r) => r.method === 'PUT')!;
    expect(await put.clone().json()).toEqual({ role: 'owner' });
    await waitFor(() => expect(screen.getAllByTestId('admin-member-row').map((r) => r.dataset.user)).toEqual(['b@x.io', 'a@x.io']));
    expect(within(rowOf('b@x.io')).queryByRole('combobox')).toBeNull();
    expect(within(rowOf('b@x.io')).getByText('owner')).toBeTruthy();
    expect((within(rowOf('a@x.io')).getByRole('combobox', { name: 'Role of a@x.io' }) as HTMLSelectElement).value).toBe('admin');
  });

  it("a refused transfer shows the server's sentence and the spec's toast, and leaves the roles", async () => {
    const sentence = "This server's owner or that member changed at the same moment. Reload the users and try again.";
    serverApi(() => json({ error: sentence, message: sentence }, { status: 409 }));
    renderScreen(<AdminServerPage />, { path: '/admin/servers/s1', route: '/admin/servers/:id', session: SIGNED_IN });
    fireEvent.change(await screen.findByRole('combobox', { name: 'Role of b@x.io' }), { target: { value: 'owner' } });
    expect(await screen.findByText(sentence)).toBeTruthy();
    expect(await screen.findByText('Failed to change the users role')).toBeTruthy();
    expect((screen.getByRole('combobox', { name: 'Role of b@x.io' }) as HTMLSelectElement).value).toBe('user');
    expect(within(rowOf('a@x.io')).getByText('owner')).toBeTruthy();
  });
});
