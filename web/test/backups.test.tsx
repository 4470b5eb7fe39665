// The /backups screen (docs/spec/part-1.txt sections 2, 4, 5, 8): collapsible settings, the read-only-user tip,
// create-now offered only with host, user and name, the list with KB sizes, download and delete, and every
// toast as the spec writes it ('succesfully' included). Fake answers are typed with the backups contract.
import type { ApiBackup, BackupSettings } from '@skald/contracts/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import BackupsPage from '../src/features/backups/BackupsPage.tsx';
import { fileSaver } from '../src/features/backups/backupsApi.ts';
import { BACKUP_TEXT, canCreate, settingsBody, sizeKb } from '../src/features/backups/backupView.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

function settings(over: Partial<BackupSettings> = {}): BackupSettings {
  return { enabled: false, interval_hours: 24, db_host: 'db.example.com', db_port: 3306, db_user: 'skald_ro', db_name: 'es_extended', maxBackups: 3, has_password: true, ...over };
}

const DONE: ApiBackup = { id: 'b-1', size: 1536, created_at: '2025-08-20T10:00:00.000Z', status: 'done', error: null };
const FAILED: ApiBackup = { id: 'b-2', size: 0, created_at: '2025-08-20T09:00:00.000Z', status: 'failed', error: 'Access denied for the database user (check the user name and password)' };

function api(over: Parameters<typeof mockApi>[0] = {}, current = settings(), list: ApiBackup[] = [DONE, FAILED]) {
  return mockApi({
    'GET /backups/s1': () => json(list),
    'GET /backups/s1/settings': () => json(current),
    ...over,
  });
}

const renderBackups = () => renderScreen(<BackupsPage />, { path: '/backups', session: SIGNED_IN });

describe('backup view helpers', () => {
  it('shows sizes in KB with 2 decimals', () => {
    expect(sizeKb(1536)).toBe('1.50 KB');
    expect(sizeKb(0)).toBe('0.00 KB');
    expect(sizeKb(123_456_789)).toBe('120563.27 KB');
  });

  it('offers create only when host, user and name are filled', () => {
    expect(canCreate(settings())).toBe(true);
    expect(canCreate(settings({ db_host: ' ' }))).toBe(false);
    expect(canCreate(settings({ db_user: '' }))).toBe(false);
    expect(canCreate(settings({ db_name: '' }))).toBe(false);
  });

  it('sends numbers, the defaults for empty fields and the password only when entered', () => {
    const base = { enabled: true, interval_hours: '6', db_host: ' db ', db_port: '', db_user: 'u', db_pass_enc: '', db_name: 'n' };
    expect(settingsBody(base)).toEqual({ enabled: true, interval_hours: 6, db_host: 'db', db_port: 3306, db_user: 'u', db_name: 'n' });
    expect(settingsBody({ ...base, interval_hours: '', db_pass_enc: 'pw' })).toMatchObject({ interval_hours: 24, db_pass_enc: 'pw' });
  });
});

describe('the backups screen', () => {
  it("shows 'Loading backups...', then the list with KB sizes, statuses and the failure reason", async () => {
    api();
    renderBackups();
    expect(screen.getByText(BACKUP_TEXT.loading)).toBeTruthy();
    const rows = await screen.findAllByTestId('backup-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('1.50 KB')).toBeTruthy();
    expect(within(rows[1]!).getByText(FAILED.error!)).toBeTruthy();
    expect((within(rows[1]!).getByRole('button', { name: /^Download/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('security-tip').textContent).toContain('read');
  });

  it("shows 'Failed to load backups' when the list cannot be read", async () => {
    api({ 'GET /backups/s1': () => json({ error: 'boom' }, { status: 500 }) });
    renderBackups();
    expect(await screen.findByText(BACKUP_TEXT.loadFailed)).toBeTruthy();
  });

  it('keeps the settings collapsed until opened, and saves them without an empty password', async () => {
    const seen = api({ 'POST /backups/s1/settings': async (request) => json({ ...settings(), ...((await request.clone().json()) as object) }) });
    renderBackups();
    const toggle = await screen.findByRole('button', { name: /Backup Settings/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect((screen.getByLabelText('Database host') as HTMLInputElement).closest('form')?.hidden).toBe(true);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect((screen.getByLabelText('Database host') as HTMLInputElement).value).toBe('db.example.com');
    fireEvent.change(screen.getByLabelText('Interval (hours)'), { target: { value: '6' } });
    fireEvent.click(screen.getByRole('button', { name: /Save Settings/ }));
    expect(await screen.findByText(BACKUP_TEXT.saved)).toBeTruthy();
    const post = seen.find((r) => r.method === 'POST');
    expect(await post!.json()).toEqual({ enabled: false, interval_hours: 6, db_host: 'db.example.com', db_port: 3306, db_user: 'skald_ro', db_name: 'es_extended' });
  });

  it("toasts 'Failed to save backup settings' when the server refuses, with its reason under the form", async () => {
    const reason = 'Database host must be a host name or an IP address.';
    api({ 'POST /backups/s1/settings': () => json({ error: reason, message: reason }, { status: 400 }) });
    renderBackups();
    fireEvent.click(await screen.findByRole('button', { name: /Backup Settings/ }));
    fireEvent.click(screen.getByRole('button', { name: /Save Settings/ }));
    expect(await screen.findByText(BACKUP_TEXT.saveFailed)).toBeTruthy();
    expect((await screen.findByTestId('backup-settings-error')).textContent).toBe(reason);
  });

  it('refuses an interval under 1 hour in the sentence the server uses, without sending it', async () => {
    const seen = api();
    renderBackups();
    fireEvent.click(await screen.findByRole('button', { name: /Backup Settings/ }));
    fireEvent.change(screen.getByLabelText('Interval (hours)'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: /Save Settings/ }));
    expect(await screen.findByText('The interval must be at least 1 hour.')).toBeTruthy();
    expect(seen.some((r) => r.method === 'POST')).toBe(false);
  });

  it('offers create-now only with host, user and name, and toasts the outcome', async () => {
    let answer = json({ id: 'b-3', status: 'running' }, { status: 202 });
    api({ 'POST /backups/s1/create': () => answer });
    renderBackups();
    fireEvent.click(await screen.findByRole('button', { name: /Create Backup Now/ }));
    expect(await screen.findByText(BACKUP_TEXT.created)).toBeTruthy();
    answer = json({ error: 'A backup of this server is already running' }, { status: 409 });
    await waitFor(() => expect((screen.getByRole('button', { name: /Create Backup Now/ }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: /Create Backup Now/ }));
    expect(await screen.findByText(BACKUP_TEXT.createFailed)).toBeTruthy();
  });

  it('hides create-now when the settings lack the user', async () => {
    api({}, settings({ db_user: '' }));
    renderBackups();
    await screen.findAllByTestId('backup-row');
    expect(screen.queryByRole('button', { name: /Create Backup Now/ })).toBeNull();
  });

  it('says the plan has no backups and offers no create on a tier without them', async () => {
    api({}, settings({ maxBackups: 0 }), []);
    renderBackups();
    expect(await screen.findByTestId('backups-not-in-tier')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Create Backup Now/ })).toBeNull();
  });

  it('downloads as backup-{id}.sql, and toasts a refused or a failed download', async () => {
    const saved = vi.spyOn(fileSaver, 'save').mockImplementation(() => undefined);
    let download: () => Response | Promise<Response> = () => new Response('-- SQL', { status: 200, headers: { 'Content-Type': 'application/sql' } });
    api({ 'GET /backups/s1/download/b-1': () => download() });
    renderBackups();
    const [row] = await screen.findAllByTestId('backup-row');
    fireEvent.click(within(row!).getByRole('button', { name: /^Download/ }));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    expect(saved.mock.calls[0]![1]).toBe('backup-b-1.sql');

    download = () => json({ error: 'Backup not found.' }, { status: 404 });
    await waitFor(() => expect((within(row!).getByRole('button', { name: /^Download/ }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(within(row!).getByRole('button', { name: /^Download/ }));
    expect(await screen.findByText(BACKUP_TEXT.downloadFailed)).toBeTruthy();

    download = () => Promise.reject(new TypeError('Failed to fetch'));
    await waitFor(() => expect((within(row!).getByRole('button', { name: /^Download/ }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(within(row!).getByRole('button', { name: /^Download/ }));
    expect(await screen.findByText(BACKUP_TEXT.downloadError)).toBeTruthy();
    expect(saved).toHaveBeenCalledTimes(1);
  });

  it("deletes with 'Backup deleted succesfully' and toasts a failed delete", async () => {
    let answer = json({ message: 'Backup deleted' });
    const seen = api({ 'DELETE /backups/s1/b-2': () => answer });
    renderBackups();
    const rows = await screen.findAllByTestId('backup-row');
    fireEvent.click(within(rows[1]!).getByRole('button', { name: /^Delete/ }));
    expect(await screen.findByText('Backup deleted succesfully')).toBeTruthy();
    expect(seen.some((r) => r.method === 'DELETE' && r.url.endsWith('/backups/s1/b-2'))).toBe(true);
    answer = json({ error: 'Backup not found.' }, { status: 404 });
    const again = await screen.findAllByTestId('backup-row');
    await waitFor(() => expect((within(again[1]!).getByRole('button', { name: /^Delete/ }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(within(again[1]!).getByRole('button', { name: /^Delete/ }));
    expect(await screen.findByText(BACKUP_TEXT.deleteFailed)).toBeTruthy();
  });
});
