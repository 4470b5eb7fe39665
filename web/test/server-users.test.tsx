import type { AddServerUserAnswer, MessageAnswer, ServerRole, ServerUserCount, ServerUsers } from '@skald/contracts/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import ServerUsersPage from '../src/features/serverUsers/ServerUsersPage.tsx';
import { meAnswer } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

const MEMBERS: ServerUsers = [
  { id: 'u1', username: 'ann', email: 'a@x.io', role: 'owner' },
  { id: 'u2', username: 'bob', email: 'b@x.io', role: 'user' },
];

function requestsTo(seen: Request[], method: string, path: string): Request[] {
  return seen.filter((r) => r.method === method && new URL(r.url).pathname === `/api${path}`);
}

async function renderUsers(handlers: Parameters<typeof mockApi>[0] = {}, { serverRole = 'owner', count = { current: 2, limit: 3 } }: { serverRole?: ServerRole; count?: ServerUserCount } = {}) {
  const seen = mockApi({
    'GET /auth/me': () => json(meAnswer({ serverRole })),
    'GET /manage/server/s1/users': () => json(MEMBERS),
    'GET /manage/server/s1/user-count': () => json(count),
    ...handlers,
  });
  const utils = renderScreen(<ServerUsersPage />, { path: '/server-users', session: SIGNED_IN });
  return { seen, ...utils };
}

function rowOf(email: string): HTMLElement {
  return screen.getAllByTestId('server-user-row').find((row) => row.dataset.user === email)!;
}

async function openAddForm() {
  await screen.findByTestId('user-count');
  fireEvent.click(screen.getByRole('button', { name: 'Add user' }));
  return screen.findByRole('form', { name: 'Add user' });
}

describe('Server users: access, list and count (docs/spec/part-2.txt sections 2, 4)', () => {
  it("shows 'Loading users...', then the rows and 'current / limit users'; the owner's row is locked", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((done) => (release = done));
    await renderUsers({ 'GET /manage/server/s1/users': async () => (await gate, json(MEMBERS)) });
    expect(await screen.findByText('Loading users...')).toBeTruthy();
    release();
    expect((await screen.findByTestId('user-count')).textContent).toBe('2 / 3 users');
    await screen.findAllByTestId('server-user-row');
    const owner = rowOf('a@x.io');
    expect(within(owner).getByText('owner')).toBeTruthy();
    expect(within(owner).queryByRole('combobox')).toBeNull();
    expect(within(owner).queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(within(rowOf('b@x.io')).getByRole('combobox', { name: 'Role of b@x.io' })).toBeTruthy();
    expect(within(rowOf('b@x.io')).getByRole('button', { name: 'Delete b@x.io' })).toBeTruthy();
  });
});

describe('Server users: Add user (docs/spec/part-2.txt sections 5, 8)', () => {
  it('toggles open, requires an e-mail, sends role user by default and toasts the spec text', async () => {
    const { seen } = await renderUsers({
      'POST /manage/add-user': () => json({ message: 'User added', user: { id: 'u3', username: 'cat', email: 'c@x.io', role: 'user' } } satisfies AddServerUserAnswer, { status: 201 }),
    });
    const form = await openAddForm();
    fireEvent.click(within(form).getByRole('button', { name: 'Add user' }));
    expect(await within(form).findByText('Please enter an e-mail address.')).toBeTruthy();
    expect(requestsTo(seen, 'POST', '/manage/add-user')).toHaveLength(0);
    fireEvent.change(within(form).getByLabelText('E-mail'), { target: { value: 'c@x.io' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add user' }));
    expect(await screen.findByText('Successfully added user to the dashboard')).toBeTruthy();
    expect(await requestsTo(seen, 'POST', '/manage/add-user')[0]!.clone().json()).toEqual({ serverId: 's1', email: 'c@x.io', role: 'user' });
    // The list and count are asked again after the change.
    await waitFor(() => expect(requestsTo(seen, 'GET', '/manage/server/s1/users').length).toBeGreaterThanOrEqual(2));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('form', { name: 'Add user' })).toBeNull();
  });

  it("shows the server's error under the form (else 'Failed to add user.') and toasts 'Failed to add user to the dashboard'", async () => {
    let answer = json({ error: 'No account with that e-mail' }, { status: 404 });
    await renderUsers({ 'POST /manage/add-user': () => answer });
    const form = await openAddForm();
    fireEvent.change(within(form).getByLabelText('E-mail'), { target: { value: 'z@x.io' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add user' }));
    expect(await within(form).findByText('No account with that e-mail')).toBeTruthy();
    // The toast shows once the lazily loaded toast host is mounted, which may come after the form's error.
    expect(await screen.findByText('Failed to add user to the dashboard')).toBeTruthy();
    answer = new Response('', { status: 502 });
    fireEvent.click(within(form).getByRole('button', { name: 'Add user' }));
    expect(await within(form).findByText('Failed to add user.')).toBeTruthy();
  });

  it('disables Add user at the limit', async () => {
    await renderUsers({}, { count: { current: 2, limit: 2 } });
    const form = await openAddForm();
    expect((within(form).getByRole('button', { name: 'Add user' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('Server users: role and removal (docs/spec/part-2.txt section 8)', () => {
  it("changes a member's role and toasts 'User role updated succesfully'; a failure toasts 'Failed to update user role'", async () => {
    let status = 200;
    const { seen } = await renderUsers({ 'PATCH /manage/server/s1/users/u2': () => json({ message: 'ok' } satisfies MessageAnswer, { status }) });
    await screen.findAllByTestId('server-user-row');
    const select = within(rowOf('b@x.io')).getByRole('combobox', { name: 'Role of b@x.io' });
    fireEvent.mouseDown(select);
    fireEvent.click(await screen.findByTitle('admin'));
    expect(await screen.findByText('User role updated succesfully')).toBeTruthy();
    expect(await requestsTo(seen, 'PATCH', '/manage/server/s1/users/u2')[0]!.clone().json()).toEqual({ role: 'admin' });

    status = 403;
    fireEvent.mouseDown(select);
    fireEvent.click((await screen.findAllByTitle('admin')).at(-1)!);
    expect(await screen.findByText('Failed to update user role')).toBeTruthy();
  });

  it("removes a member after a confirmation ('Succesfully removed user from the dashboard'); a refusal toasts 'Failed to remove user:' with the reason", async () => {
    let answer = json({ error: 'The owner cannot be removed.' }, { status: 403 });
    const { seen } = await renderUsers({ 'DELETE /manage/server/s1/users/u2': () => answer });
    await screen.findAllByTestId('server-user-row');
    fireEvent.click(within(rowOf('b@x.io')).getByRole('button', { name: 'Delete b@x.io' }));
    expect(requestsTo(seen, 'DELETE', '/manage/server/s1/users/u2')).toHaveLength(0);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to remove user: The owner cannot be removed.')).toBeTruthy();
    // The toast shows before the confirmation has closed (it closes once its onConfirm promise settles): a
    // click on Delete meanwhile would close it instead of opening a new one, as it would for a person.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull());

    answer = json({ message: 'removed' } satisfies MessageAnswer);
    fireEvent.click(within(rowOf('b@x.io')).getByRole('button', { name: 'Delete b@x.io' }));
    const confirmButtons = await screen.findAllByRole('button', { name: 'Delete' });
    fireEvent.click(confirmButtons.at(-1)!);
    expect(await screen.findByText('Succesfully removed user from the dashboard')).toBeTruthy();
  });
});
