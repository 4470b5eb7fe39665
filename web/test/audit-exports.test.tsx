// The /audit-logs and /exports screens (docs/spec/part-2.txt sections 2, 7, 8, 9): filters and paging sent to the
// server, the table with details as JSON text, loading and empty texts; the exports' usage line, the CSV and
// PDF downloads with their filenames, 'Exporting...' while busy, the custom selection's parameters, the
// 'Select at least one log type!' toast, the 'Export limit reached' modal on 429 and the failure toasts.
import type { AuditLogPage, ExportStatus } from '@skald/contracts/api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import AuditLogsPage, { AUDIT_TEXT } from '../src/features/audit/AuditLogsPage.tsx';
import ExportsPage, { EXPORT_TEXT } from '../src/features/exports/ExportsPage.tsx';
import { fileSaver, localDay } from '../src/features/exports/exportsApi.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

function entry(n: number, over: Partial<AuditLogPage['logs'][number]> = {}): AuditLogPage['logs'][number] {
  return { id: `e${n}`, user_id: 'u1', user_email: 'ann@x.io', action: 'server.renamed', details: { from: 'A', to: `B${n}` }, created_at: '2026-01-02T10:00:00.000Z', ...over };
}

const USERS = [
  { id: 'u1', email: 'ann@x.io' },
  { id: 'u2', email: 'bob@x.io' },
];

describe('/audit-logs', () => {
  it("shows 'Loading audit logs...', then the table with details as JSON text, and pages on the server", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const seen = mockApi({
      'GET /server/s1/audit-logs': async (request) => {
        await gate;
        const page = Number(new URL(request.url).searchParams.get('page'));
        const logs = page === 1 ? [entry(1), entry(2, { action: 'apikey.rotated', details: 'API key reset', user_email: 'bob@x.io', user_id: 'u2' })] : [entry(26)];
        return json({ logs, users: USERS, total: 26 } satisfies AuditLogPage);
      },
    });
    renderScreen(<AuditLogsPage />, { path: '/audit-logs', session: SIGNED_IN });
    expect(await screen.findByText(AUDIT_TEXT.loading)).toBeTruthy();
    await act(async () => release());
    const rows = await screen.findAllByTestId('audit-row');
    expect(rows).toHaveLength(2);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['ID', 'User', 'Action', 'Details', 'Timestamp']);
    expect(within(rows[0]!).getByText('{"from":"A","to":"B1"}')).toBeTruthy();
    expect(within(rows[1]!).getByText('API key reset')).toBeTruthy();
    expect(within(rows[1]!).getByText('bob@x.io')).toBeTruthy();
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(1));
    const last = new URL(seen.at(-1)!.url);
    expect(Object.fromEntries(last.searchParams)).toEqual({ page: '2', pageSize: '25' });
  });

  it('filters by user and action on the server, back to page 1; an empty answer says No logs found', async () => {
    const seen = mockApi({
      'GET /server/s1/audit-logs': (request) => {
        const params = new URL(request.url).searchParams;
        const logs = params.get('action') === 'logs.deleted' ? [] : [entry(1)];
        return json({ logs, users: USERS, total: logs.length } satisfies AuditLogPage);
      },
    });
    renderScreen(<AuditLogsPage />, { path: '/audit-logs', session: SIGNED_IN });
    await screen.findAllByTestId('audit-row');
    const userSelect = screen.getByLabelText('User');
    expect(within(userSelect).getAllByRole('option').map((o) => o.textContent)).toEqual(['All users', 'ann@x.io', 'bob@x.io']);
    fireEvent.change(userSelect, { target: { value: 'u2' } });
    await waitFor(() => expect(new URL(seen.at(-1)!.url).searchParams.get('user')).toBe('u2'));
    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'logs.deleted' } });
    expect(await screen.findByText(AUDIT_TEXT.empty)).toBeTruthy();
    expect(Object.fromEntries(new URL(seen.at(-1)!.url).searchParams)).toEqual({ page: '1', pageSize: '25', user: 'u2', action: 'logs.deleted' });
  });
});

describe('/exports', () => {
  let saved: MockInstance<(blob: Blob, filename: string) => void>;
  beforeEach(() => {
    saved = vi.spyOn(fileSaver, 'save').mockImplementation(() => undefined);
  });
  const readText = (blob: Blob) =>
    new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(reader.error);
      reader.readAsText(blob);
    });
  const file = (n: number) => ({ name: saved.mock.calls[n]![1], text: readText(saved.mock.calls[n]![0]) });

  function exportsApi(extra: Parameters<typeof mockApi>[0] = {}, status: ExportStatus = { used: 1, limit: 10 }) {
    return mockApi({
      'GET /exports/status': () => json(status),
      'GET /exports/logs': () => new Response('id,message\r\n1,hi\r\n', { headers: { 'Content-Type': 'text/csv; charset=utf-8' } }),
      'GET /exports/auditlogs/pdf': () => new Response(new Uint8Array([37, 80, 68, 70]), { headers: { 'Content-Type': 'application/pdf' } }),
      'GET /exports/custom': () => new Response('kind,id\r\n', { headers: { 'Content-Type': 'text/csv; charset=utf-8' } }),
      ...extra,
    });
  }

  it('shows the server name, used / limit, three cards with CSV and PDF, and downloads named {type}-{date}', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    exportsApi({
      'GET /exports/logs': async () => {
        await gate;
        return new Response('id,message\r\n1,hi\r\n', { headers: { 'Content-Type': 'text/csv; charset=utf-8' } });
      },
    });
    renderScreen(<ExportsPage />, { path: '/exports', session: SIGNED_IN });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Export Logs – Alpha');
    expect((await screen.findByTestId('export-usage')).textContent).toBe('1 / 10 exports used this month');
    for (const type of ['logs', 'photologs', 'auditlogs']) {
      const card = screen.getByTestId(`export-card-${type}`);
      expect(within(card).getAllByRole('button').map((b) => b.textContent)).toEqual(['CSV', 'PDF']);
    }
    fireEvent.click(screen.getByRole('button', { name: 'Export Logs as CSV' }));
    const busy = await screen.findByRole('button', { name: `${EXPORT_TEXT.busy} Export Logs as CSV` });
    expect(busy.textContent).toContain('Exporting...');
    expect((screen.getByRole('button', { name: 'Export Audit Logs as PDF' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => release());
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    expect(file(0).name).toBe(`logs-${localDay()}.csv`);
    expect(await file(0).text).toBe('id,message\r\n1,hi\r\n');
    fireEvent.click(await screen.findByRole('button', { name: 'Export Audit Logs as PDF' }));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(2));
    expect(file(1).name).toBe(`auditlogs-${localDay()}.pdf`);
  });

  it('custom: logs only and today by default, filters sent only when filled; no type toasts the spec text', async () => {
    const seen = exportsApi();
    renderScreen(<ExportsPage />, { path: '/exports', session: SIGNED_IN });
    const checkboxes = screen.getAllByRole('checkbox') as HTMLInputElement[];
    expect(checkboxes.map((c) => [c.value, c.checked])).toEqual([
      ['logs', true],
      ['photologs', false],
      ['auditlogs', false],
    ]);
    expect((screen.getByLabelText('Start Date') as HTMLInputElement).value).toBe(localDay());
    expect((screen.getByLabelText('End Date') as HTMLInputElement).value).toBe(localDay());
    fireEvent.click(checkboxes[2]!);
    fireEvent.change(screen.getByLabelText('Level'), { target: { value: 'error' } });
    fireEvent.change(screen.getByLabelText('Start Date'), { target: { value: '2026-01-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Export Custom Selection CSV' }));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    expect(file(0).name).toBe(`custom-${localDay()}.csv`);
    const params = Object.fromEntries(new URL(seen.find((r) => r.url.includes('/exports/custom'))!.url).searchParams);
    expect(params).toMatchObject({ serverId: 's1', types: 'logs,auditlogs', level: 'error', from: '2026-01-01', to: localDay() });
    expect(params).not.toHaveProperty('type');
    expect(params).not.toHaveProperty('resource');

    fireEvent.click(checkboxes[0]!);
    fireEvent.click(checkboxes[2]!);
    fireEvent.click(screen.getByRole('button', { name: 'Export Custom Selection CSV' }));
    expect(await screen.findByText('Select at least one log type!')).toBeTruthy();
    expect(seen.filter((r) => r.url.includes('/exports/custom'))).toHaveLength(1);
  });

  it("a 429 opens 'Export limit reached' with its text, closed by its button; other failures toast as the spec writes", async () => {
    exportsApi({
      'GET /exports/logs': () => json({ error: "You've reached your export limit for this month. Please try again later." }, { status: 429 }),
      'GET /exports/photologs': () => json({ error: 'Internal Server Error' }, { status: 500 }),
      'GET /exports/photologs/pdf': () => json({ error: 'Server not found.' }, { status: 404 }),
    });
    renderScreen(<ExportsPage />, { path: '/exports', session: SIGNED_IN });
    fireEvent.click(await screen.findByRole('button', { name: 'Export Logs as CSV' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Export limit reached')).toBeTruthy();
    expect(within(dialog).getByText(EXPORT_TEXT.limitBody)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Export Photo Logs as CSV' }));
    expect(await screen.findByText('Export failed: Internal Server Error')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Export Photo Logs as PDF' }));
    expect(await screen.findByText('PDF Export failed: Server not found.')).toBeTruthy();
    expect(saved).not.toHaveBeenCalled();
  });

  it('a failing status is simply not shown', async () => {
    exportsApi({ 'GET /exports/status': () => json({ error: 'boom' }, { status: 500 }) });
    renderScreen(<ExportsPage />, { path: '/exports', session: SIGNED_IN });
    await screen.findByRole('button', { name: 'Export Logs as CSV' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('export-usage')).toBeNull();
  });
});
