/**
 * The admin area's pieces the logs service owns: a server's Logs and Photo Logs tabs for staff
 * (site roles moderator and up), and the logs.server-counts facts the admin service reads its counts from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogsBatchAcceptedEvent, eventMessage } from '@skald/contracts';
import type { AcceptedLog, LogsServerCounts, SiteRole } from '@skald/contracts';
import type { AdminPhotoLogPage, AdminServerLogs } from '@skald/contracts/api';
import { waitFor } from '@skald/testing';
import { createHarness, seedServer, storedIds } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const S = 'srv-staff';
let h: Harness;

function log(id: string, createdAt: number, overrides: Partial<AcceptedLog> = {}): AcceptedLog {
  return { id, createdAt, level: 'info', type: 'General', resource: 'core', message: `m ${id}`, metadata: { n: id }, logType: 'text', imageKey: null, thumbKey: null, ...overrides };
}
const photo = (id: string, createdAt: number) => log(id, createdAt, { logType: 'photo', imageKey: `photos/${S}/${id}.webp`, thumbKey: `thumbs/${S}/${id}.webp` });

const getAs = (url: string, role: SiteRole | null) => (role === null ? h.inject({ method: 'GET', url }) : h.injectAs({ id: `u-${role}`, role }, { method: 'GET', url }));

function countFacts(serverId: string): LogsServerCounts[] {
  return h.published.filter((m) => m.headers['event-type'] === 'logs.server-counts.v1').map((m) => (m.payload as { data: LogsServerCounts }).data).filter((d) => d.serverId === serverId);
}

beforeAll(async () => {
  h = await createHarness({ countsEveryMs: 200 });
  await seedServer(h, { serverId: S, ownerId: 'owner-1', tier: 'pro' });
  const DAY = 86_400_000;
  // Real times (the counts job reads the last 7 days from the wall clock): 3 text logs today, 1 two days ago, 3 photos.
  const now = Date.now();
  const logs = [log('t1', now - 3000), log('t2', now - 2000, { level: 'error' }), log('t3', now - 1000), log('t4', now - 2 * DAY), photo('p1', now - 300), photo('p2', now - 200), photo('p3', now - 100)];
  await h.deps.bus.publish([eventMessage(LogsBatchAcceptedEvent, S, { serverId: S, logs })]);
  await waitFor(async () => (await storedIds(h, S)).length === logs.length, 'stored logs');
});
afterAll(async () => h.close());

describe('GET /admin/servers/{id}/logs and /photologs (logs service, staff)', () => {
  it.each(['/admin/servers/srv-staff/logs', '/admin/servers/srv-staff/photologs?page=1&limit=12'])('role matrix of %s', async (url) => {
    expect((await getAs(url, null)).statusCode).toBe(401);
    expect((await getAs(url, 'user')).statusCode).toBe(403);
    for (const role of ['moderator', 'admin', 'superadmin'] as const) expect((await getAs(url, role)).statusCode, role).toBe(200);
    // The owner of the server, with the default site role, is not staff.
    expect((await h.injectAs({ id: 'owner-1' }, { method: 'GET', url })).statusCode).toBe(403);
  });

  it('answers the newest text logs with their fields, and 404 for an unknown server', async () => {
    const { logs } = (await getAs(`/admin/servers/${S}/logs`, 'moderator')).json<AdminServerLogs>();
    expect(logs.map((l) => l.id)).toEqual(['t3', 't2', 't1', 't4']);
    expect(logs[1]).toMatchObject({ id: 't2', level: 'error', type: 'General', resource: 'core', message: 'm t2', metadata: { n: 't2' } });
    expect(typeof logs[0]?.created_at).toBe('string');
    const missing = await getAs('/admin/servers/nope/logs', 'moderator');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('Server not found.');
  });

  it('pages photo logs with {page, limit, total} and signed image paths', async () => {
    const second = (await getAs(`/admin/servers/${S}/photologs?page=2&limit=2`, 'admin')).json<AdminPhotoLogPage>();
    expect(second.pagination).toEqual({ page: 2, limit: 2, total: 3 });
    expect(second.photos.map((p) => p.id)).toEqual(['p1']);
    expect(second.photos[0]?.image_path).toMatch(/^\/api\/photologs\//);
    const first = (await getAs(`/admin/servers/${S}/photologs`, 'admin')).json<AdminPhotoLogPage>();
    expect(first.pagination).toEqual({ page: 1, limit: 12, total: 3 });
    expect((await getAs(`/admin/servers/${S}/photologs?limit=101`, 'admin')).statusCode).toBe(400);
  });
});

describe('logs.server-counts facts', () => {
  it("announce a changed server's stored counts and days, and again after a cleanup", async () => {
    await waitFor(() => countFacts(S).length > 0, 'the first counts fact');
    const first = countFacts(S).at(-1)!;
    expect(first).toMatchObject({ serverId: S, logs: 4, photoLogs: 3 });
    const today = new Date().toISOString().slice(0, 10);
    expect(first.days.find((d) => d.date === today)).toEqual({ date: today, logs: 3, photoLogs: 3 });
    expect(first.days.reduce((n, d) => n + d.logs, 0)).toBe(4);
    // Nothing changed: no further fact.
    const before = countFacts(S).length;
    // A fixed wait, kept on purpose: it proves no further fact is published, and nothing signals that none will be.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(countFacts(S)).toHaveLength(before);
    // A cleanup of every log: the next fact says 0.
    h.clock.now = Date.now();
    const cleanup = await h.injectAs({ id: 'owner-1' }, { method: 'DELETE', url: `/logs/cleanup?serverId=${S}&days=0` });
    expect(cleanup.statusCode).toBe(200);
    await waitFor(() => countFacts(S).at(-1)?.logs === 0, 'counts after the cleanup');
    expect(countFacts(S).at(-1)).toMatchObject({ logs: 0, photoLogs: 0, days: [] });
  });
});
