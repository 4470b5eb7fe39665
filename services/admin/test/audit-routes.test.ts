/** GET /server/{id}/audit-logs and GET /admin/logs over the audit consumer. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_PAGE_SIZE } from '@skald/contracts';
import type { AdminLogList, AuditLogPage } from '@skald/contracts';
import { waitFor } from '@skald/testing';
import { createHarness, getAs, publishAudit, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

let h: Harness;

const trailOf = async (url: string, userId = 'u-owner'): Promise<AuditLogPage> => {
  const res = await getAs(h, url, userId);
  expect(res.statusCode).toBe(200);
  return res.json<AuditLogPage>();
};

beforeAll(async () => {
  h = await createHarness();
  await seedServer(h, { serverId: 's1', ownerId: 'u-owner', name: 'Alpha' }, { 'u-admin': 'admin', 'u-user': 'user' });
  await seedServer(h, { serverId: 's2', ownerId: 'u-other', name: 'Beta' });
});

afterAll(async () => {
  await h?.close();
});

describe('GET /server/{id}/audit-logs', () => {
  it('answers the owner and admins; user role 403, another tenant 404, no token 401', async () => {
    expect((await getAs(h, '/server/s1/audit-logs', 'u-owner')).statusCode).toBe(200);
    expect((await getAs(h, '/server/s1/audit-logs', 'u-admin')).statusCode).toBe(200);
    expect((await getAs(h, '/server/s1/audit-logs', 'u-user')).statusCode).toBe(403);
    const other = await getAs(h, '/server/s2/audit-logs', 'u-owner');
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ error: 'Server not found.' });
    expect((await getAs(h, '/server/s1/audit-logs', null)).statusCode).toBe(401);
  });

  it('stores each event once (redelivery included), newest first, with the users list and filters', async () => {
    const [first, second] = await publishAudit(
      h,
      { serverId: 's3', actorId: 'u3', actorEmail: 'three@example.com', action: 'server.created', details: { name: 'Gamma' } },
      { serverId: 's3', actorId: 'u3b', actorEmail: 'b@example.com', action: 'logs.colors-saved', details: { levels: ['info'] } },
    );
    await seedServer(h, { serverId: 's3', ownerId: 'u3', name: 'Gamma' });
    await waitFor(async () => (await trailOf('/server/s3/audit-logs', 'u3')).total === 2, 'two entries');
    // The same bus message again (at-least-once delivery): still two entries.
    const again = h.published.filter((m) => m.topic === 'skald.audit.v1' && (m.payload as { data: { serverId: string } }).data.serverId === 's3');
    await h.deps.bus.publish(again.map((m) => ({ topic: m.topic, key: m.key, id: m.id, headers: m.headers, payload: m.payload })));
    await publishAudit(h, { serverId: 's3', actorId: 'u3', actorEmail: 'three@example.com', action: 'apikey.rotated', details: 'API key reset' });
    await waitFor(async () => (await trailOf('/server/s3/audit-logs', 'u3')).total === 3, 'three entries');
    const all = await trailOf('/server/s3/audit-logs', 'u3');
    expect(all.logs.map((l) => l.action)).toEqual(['apikey.rotated', 'logs.colors-saved', 'server.created']);
    expect(all.logs[2]).toEqual({ id: expect.any(String), user_id: 'u3', user_email: 'three@example.com', action: 'server.created', details: { name: 'Gamma' }, created_at: first!.at });
    expect(all.logs[1]!.created_at).toBe(second!.at);
    expect(all.users).toEqual([
      { id: 'u3b', email: 'b@example.com' },
      { id: 'u3', email: 'three@example.com' },
    ]);
    const byUser = await trailOf('/server/s3/audit-logs?user=u3', 'u3');
    expect(byUser.logs.map((l) => l.action)).toEqual(['apikey.rotated', 'server.created']);
    expect(byUser.total).toBe(2);
    expect(byUser.users).toHaveLength(2);
    const byAction = await trailOf('/server/s3/audit-logs?action=logs.colors-saved', 'u3');
    expect(byAction.logs.map((l) => l.user_id)).toEqual(['u3b']);
    expect((await trailOf('/server/s3/audit-logs?user=&action=', 'u3')).total).toBe(3);
  });

  it(`pages on the server, ${AUDIT_PAGE_SIZE} by default`, async () => {
    await seedServer(h, { serverId: 's4', ownerId: 'u4', name: 'Delta' });
    await publishAudit(h, ...Array.from({ length: 30 }, (_, i) => ({ serverId: 's4', actorId: 'u4', actorEmail: 'four@example.com', details: { n: i } })));
    await waitFor(async () => (await trailOf('/server/s4/audit-logs', 'u4')).total === 30, 'thirty entries');
    const page1 = await trailOf('/server/s4/audit-logs', 'u4');
    expect(page1.logs).toHaveLength(AUDIT_PAGE_SIZE);
    expect(page1.logs[0]!.details).toEqual({ n: 29 });
    const page2 = await trailOf('/server/s4/audit-logs?page=2', 'u4');
    expect(page2.logs.map((l) => l.details)).toEqual([4, 3, 2, 1, 0].map((n) => ({ n })));
    expect((await trailOf('/server/s4/audit-logs?page=3&pageSize=10', 'u4')).logs.map((l) => l.details)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0].map((n) => ({ n })));
  });

  it('keeps the publish order of entries of one millisecond', async () => {
    await seedServer(h, { serverId: 's5', ownerId: 'u5', name: 'Epsilon' });
    const at = '2026-02-01T00:00:00.000Z';
    await publishAudit(h, ...(['billing.subscription-changed', 'server.tier-changed', 'server.suspension-changed'] as const).map((action) => ({ serverId: 's5', actorId: 'system', actorEmail: 'system', action, at })));
    await waitFor(async () => (await trailOf('/server/s5/audit-logs', 'u5')).total === 3, 'three entries');
    expect((await trailOf('/server/s5/audit-logs', 'u5')).logs.map((l) => l.action)).toEqual(['server.suspension-changed', 'server.tier-changed', 'billing.subscription-changed']);
  });

  it('refuses bad paging with a 400 and keeps another server out of the trail', async () => {
    expect((await getAs(h, '/server/s1/audit-logs?page=0', 'u-owner')).statusCode).toBe(400);
    expect((await getAs(h, '/server/s1/audit-logs?pageSize=101', 'u-owner')).statusCode).toBe(400);
    expect((await getAs(h, '/server/s1/audit-logs?sort=x', 'u-owner')).statusCode).toBe(400);
    await publishAudit(h, { serverId: 's2', actorId: 'u-other', actorEmail: 'other@example.com', action: 'server.renamed', details: { secretOf: 's2' } });
    await waitFor(async () => (await trailOf('/server/s2/audit-logs', 'u-other')).total === 1, "s2's entry");
    expect(JSON.stringify(await trailOf('/server/s1/audit-logs'))).not.toContain('secretOf');
  });
});

describe('GET /admin/logs', () => {
  it('lists staff actions only, with the server name, for superadmins; lower site roles 403', async () => {
    await h.identity.user('u-super', 'superadmin');
    await h.identity.user('u-siteadmin', 'admin');
    await publishAudit(
      h,
      { serverId: 's1', actorId: 'u-siteadmin', actorEmail: 'staff@example.com', action: 'staff.tier-changed', details: { from: 'free', to: 'pro' } },
      { serverId: null, actorId: 'u-super', actorEmail: 'super@example.com', action: 'user.site-role-changed', details: { userId: 'u-x', from: 'staff', to: 'moderator' } },
      { serverId: 's1', actorId: 'u-owner', actorEmail: 'owner@example.com', action: 'server.renamed', details: { from: 'Alpha', to: 'Alpha' } },
    );
    await waitFor(async () => (await getAs(h, '/admin/logs', 'u-super')).json<AdminLogList>().logs?.length === 2, 'two staff actions');
    const { logs } = (await getAs(h, '/admin/logs', 'u-super')).json<AdminLogList>();
    expect(logs.map((l) => [l.action, l.server_id, l.server_name, l.admin_user_id, l.admin_email])).toEqual([
      ['user.site-role-changed', null, null, 'u-super', 'super@example.com'],
      ['staff.tier-changed', 's1', 'Alpha', 'u-siteadmin', 'staff@example.com'],
    ]);
    // The staff change on s1 is also in that server's own trail.
    expect((await trailOf('/server/s1/audit-logs?action=staff.tier-changed')).total).toBe(1);
    expect((await getAs(h, '/admin/logs', 'u-siteadmin')).statusCode).toBe(403);
    expect((await getAs(h, '/admin/logs', 'u-owner')).statusCode).toBe(403);
    expect((await getAs(h, '/admin/logs', null)).statusCode).toBe(401);
  });
});
