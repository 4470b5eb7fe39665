import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_ROLE, SITE_ROLES, type AdminUserList } from '@skald/contracts/api';
import AdminUsersPage from '../src/features/admin/AdminUsersPage.tsx';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

const USERS: AdminUserList = {
  users: [{ id: 'u1', email: 'plain@x.io', username: 'plain', role: DEFAULT_SITE_ROLE, twoFAEnabled: true, serverCount: 0, active: true, created_at: '2026-01-01T00:00:00.000Z', last_successful_login: null }],
};

describe('the default site role in the admin area (one name: docs/DECISIONS.md)', () => {
  it("shows the account's role as the answers name it and offers the site roles' one list", async () => {
    const seen = mockApi({
      'GET /admin/users': () => json(USERS),
      'PUT /admin/users/u1/role': () => json({ id: 'u1', role: 'moderator', active: true }),
    });
    renderScreen(<AdminUsersPage />, { path: '/admin/users', session: SIGNED_IN });
    const row = (await screen.findAllByTestId('admin-user-row'))[0]!;
    const select = within(row).getByRole('combobox', { name: 'Role of plain@x.io' }) as HTMLSelectElement;
    expect(select.value).toBe('user');
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual([...SITE_ROLES]);
    expect(within(row).getAllByText('user').length).toBeGreaterThan(0);
    fireEvent.change(select, { target: { value: 'moderator' } });
    expect(await screen.findByText('Succesfully updated the user role')).toBeTruthy();
    const put = seen.find((r) => r.method === 'PUT')!;
    expect(await put.clone().json()).toEqual({ role: 'moderator' });
  });
});
