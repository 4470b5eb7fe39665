/**
 * Owner-only on every route (docs/spec/part-1.txt section 6: only the owner sees DB Backups): no token 401, admin and user
 * 403, another tenant's owner and an unknown server 404, and the refusals change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, createHarness, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const S = 'srv-access';
const OTHER = 'srv-other';
let h: Harness;

const ROUTES: readonly { method: 'GET' | 'POST' | 'DELETE'; url: string; payload?: unknown }[] = [
  { method: 'GET', url: `/backups/${S}` },
  { method: 'GET', url: `/backups/${S}/settings` },
  { method: 'POST', url: `/backups/${S}/settings`, payload: { enabled: false, interval_hours: 24, db_host: '', db_user: '', db_name: '' } },
  { method: 'POST', url: `/backups/${S}/create` },
  { method: 'GET', url: `/backups/${S}/download/some-id` },
  { method: 'DELETE', url: `/backups/${S}/some-id` },
];

beforeAll(async () => {
  h = await createHarness();
  await seedServer(h, { serverId: S, ownerId: 'owner-1', tier: 'starter' }, { 'admin-1': 'admin', 'user-1': 'user' });
  await seedServer(h, { serverId: OTHER, ownerId: 'stranger', tier: 'legend' });
});

afterAll(async () => {
  await h.close();
});

describe('who may call the backups routes', () => {
  it.each(ROUTES)('$method $url: 401 without a token, 403 for admin and user, 404 for another tenant and an unknown server', async (route) => {
    expect((await callAs(h, route.method, route.url, null, route.payload)).statusCode).toBe(401);
    for (const member of ['admin-1', 'user-1']) {
      const res = await callAs(h, route.method, route.url, member, route.payload);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'You do not have permission to do this.' });
    }
    const stranger = await callAs(h, route.method, route.url, 'stranger', route.payload);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toMatchObject({ error: 'Server not found.' });
    const unknown = await callAs(h, route.method, route.url.replace(S, 'nope'), 'owner-1', route.payload);
    expect(unknown.statusCode).toBe(404);
  });

  it('the refusals changed nothing: no settings saved, no backup recorded', async () => {
    const settings = await callAs(h, 'GET', `/backups/${S}/settings`, 'owner-1');
    expect(settings.json()).toMatchObject({ db_host: '', has_password: false });
    expect((await callAs(h, 'GET', `/backups/${S}`, 'owner-1')).json()).toEqual([]);
  });
});
