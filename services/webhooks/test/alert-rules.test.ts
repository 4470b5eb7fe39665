/**
 * Alert rules (docs/ALERTS.md): the routes (role matrix, other tenants, validation, the tier's limit,
 * audit), and evaluation as logs arrive, on a fake clock with real deliveries to a local receiver: a burst
 * that crosses the threshold and falls back gives exactly one firing and one resolved message; no repeat
 * while firing; the cooldown; absence fires after the window of silence and resolves on the next log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERTS_NOT_IN_TIER, ALERT_NOT_FOUND, ALERT_THRESHOLD_REQUIRED, ALERT_UNKNOWN_WEBHOOK, AuditRecordedEvent, alertLimitReached, alertWindowOutOfRange } from '@skald/contracts';
import type { AlertHistory, AlertList, AlertTestResult, ApiAlertRule } from '@skald/contracts';
import { waitFor } from '@skald/testing';
import { ALERTS_CONSUMER_GROUP } from '../src/events/alert-consumer.ts';
import { signatureOf } from '../src/domain/signing.ts';
import { acceptedLog, as, createHarness, createWebhook, publishBatch, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { startReceiver } from './support/receiver.ts';
import type { Receiver } from './support/receiver.ts';

const A = 'srv-alert-a';
const B = 'srv-alert-b';
let clock = Date.UTC(2026, 10, 1, 12, 0, 0);
let ticks = 0;
let h: Harness;
let receiver: Receiver;
let genericId = '';
let genericSecret = '';
let otherTenantWebhook = '';

beforeAll(async () => {
  h = await createHarness({ now: () => clock, alertTickMs: 25, alertMinWindowSeconds: 10, onAlertTick: () => void (ticks += 1) });
  receiver = await startReceiver();
  await h.identity.user('owner-a');
  await h.identity.user('admin-a');
  await seedServer(h, { serverId: A, ownerId: 'owner-a', tier: 'starter' }, { 'admin-a': 'admin', 'user-a': 'user' });
  await seedServer(h, { serverId: B, ownerId: 'owner-b', tier: 'legend' });
  const created = await createWebhook(h, 'owner-a', { serverId: A, url: receiver.url, platform: 'generic' });
  genericId = created.id;
  genericSecret = created.secret!;
  otherTenantWebhook = (await createWebhook(h, 'owner-b', { serverId: B, url: `${receiver.url}/b`, platform: 'generic' })).id;
});

afterAll(async () => {
  await h.close();
  await receiver.close();
});

const rule = (overrides: Record<string, unknown> = {}) => ({
  serverId: A,
  name: 'Anti-cheat errors',
  kind: 'threshold',
  filter: { level: 'error', type: 'AntiCheat' },
  threshold: 3,
  windowSeconds: 60,
  webhookIds: [genericId],
  enabled: true,
  ...overrides,
});

async function createRule(body: Record<string, unknown>, userId = 'owner-a'): Promise<ApiAlertRule> {
  const res = await as(h, userId, 'POST', '/alerts', body);
  if (res.statusCode !== 201) throw new Error(`create alert: ${res.statusCode} ${res.body}`);
  return res.json<{ alert: ApiAlertRule }>().alert;
}

const alertMessages = (ruleId: string) => receiver.requests.filter((r) => (r.body['data'] as { rule?: { id?: string } } | undefined)?.rule?.id === ruleId);
const ruleOf = async (id: string) => (await as(h, 'owner-a', 'GET', `/alerts?serverId=${A}`)).json<AlertList>().alerts.find((a) => a.id === id)!;
/** The alert group has evaluated everything published: the fake clock may move on without restamping a batch. */
async function evaluated(): Promise<void> {
  await waitFor(async () => {
    const lags = (await h.deps.bus.consumerLag?.()) ?? [];
    const alerts = lags.filter((l) => l.group === ALERTS_CONSUMER_GROUP);
    return alerts.length > 0 && alerts.every((l) => l.lag === 0);
  }, 'the alert consumer caught up');
}

const antiCheat = (n: number) => Array.from({ length: n }, () => acceptedLog({ level: 'error', type: 'AntiCheat', message: 'speed hack suspected' }));

describe('alert rule routes', () => {
  it('creates a rule for owner and admin, lists it with its state; user 403, no token 401, other tenant 404', async () => {
    const created = await createRule(rule({ name: 'First', cooldownSeconds: 30 }), 'admin-a');
    expect(created).toMatchObject({ serverId: A, name: 'First', kind: 'threshold', threshold: 3, windowSeconds: 60, cooldownSeconds: 30, state: 'ok', lastFiredAt: null, lastResolvedAt: null });
    const list = await as(h, 'owner-a', 'GET', `/alerts?serverId=${A}`);
    expect(list.statusCode).toBe(200);
    expect(list.json<AlertList>()).toMatchObject({ limit: 3, count: 1, alerts: [{ id: created.id, state: 'ok' }] });

    expect((await as(h, 'user-a', 'GET', `/alerts?serverId=${A}`)).statusCode).toBe(403);
    expect((await as(h, 'user-a', 'POST', '/alerts', rule())).statusCode).toBe(403);
    expect((await as(h, null, 'GET', `/alerts?serverId=${A}`)).statusCode).toBe(401);
    expect((await as(h, 'owner-b', 'GET', `/alerts?serverId=${A}`)).statusCode).toBe(404);
    for (const [method, path] of [['PUT', ''], ['DELETE', ''], ['GET', '/history'], ['POST', '/test']] as const) {
      const body = method === 'PUT' ? rule() : undefined;
      const other = await as(h, 'owner-b', method, `/alerts/${created.id}${path}`, body);
      expect(other.statusCode, `${method} ${path} other tenant`).toBe(404);
      expect(other.json()).toMatchObject({ error: ALERT_NOT_FOUND });
      expect((await as(h, 'user-a', method, `/alerts/${created.id}${path}`, body)).statusCode, `${method} ${path} user`).toBe(403);
      expect((await as(h, null, method, `/alerts/${created.id}${path}`, body)).statusCode, `${method} ${path} no token`).toBe(401);
    }
    const del = await as(h, 'owner-a', 'DELETE', `/alerts/${created.id}`);
    expect(del.statusCode).toBe(200);
    expect((await as(h, 'owner-a', 'DELETE', `/alerts/${created.id}`)).statusCode).toBe(404);
  });

  it('refuses a bad rule with a sentence and stores nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [rule({ threshold: null }), ALERT_THRESHOLD_REQUIRED],
      [rule({ windowSeconds: 5 }), alertWindowOutOfRange(10, 86_400)],
      [rule({ webhookIds: [otherTenantWebhook] }), ALERT_UNKNOWN_WEBHOOK],
      [rule({ webhookIds: ['nope'] }), ALERT_UNKNOWN_WEBHOOK],
      [rule({ filter: { level: 'loud' } }), 'The level must be one of info, warn, error, fatal, debug.'],
    ];
    for (const [body, error] of cases) {
      const res = await as(h, 'owner-a', 'POST', '/alerts', body);
      expect(res.statusCode, error).toBe(400);
      expect(res.json<{ error: string }>().error).toBe(error);
    }
    expect((await as(h, 'owner-a', 'POST', '/alerts', rule({ kind: 'sometimes' }))).statusCode).toBe(400);
    expect((await as(h, 'owner-a', 'POST', '/alerts', rule({ windowSeconds: 86_401 }))).statusCode).toBe(400);
    expect((await as(h, 'owner-a', 'GET', `/alerts?serverId=${A}`)).json<AlertList>().count).toBe(0);
  });

  it("refuses a create past the tier's limit, and every create on Free", async () => {
    const made = [await createRule(rule({ name: 'one' })), await createRule(rule({ name: 'two' })), await createRule(rule({ name: 'three' }))];
    const fourth = await as(h, 'owner-a', 'POST', '/alerts', rule({ name: 'four' }));
    expect(fourth.statusCode).toBe(403);
    expect(fourth.json()).toMatchObject({ error: alertLimitReached(3) });
    await seedServer(h, { serverId: 'srv-alert-free', ownerId: 'owner-a' });
    const free = await as(h, 'owner-a', 'POST', '/alerts', rule({ serverId: 'srv-alert-free', webhookIds: [] }));
    expect(free.statusCode).toBe(403);
    expect(free.json()).toMatchObject({ error: ALERTS_NOT_IN_TIER });
    for (const r of made) await as(h, 'owner-a', 'DELETE', `/alerts/${r.id}`);
  });

  it('edits a rule, and records create, update and delete in the audit trail', async () => {
    const created = await createRule(rule({ name: 'to edit' }));
    const edit = await as(h, 'admin-a', 'PUT', `/alerts/${created.id}`, { ...rule({ name: 'edited', threshold: 9 }), serverId: undefined });
    expect(edit.statusCode).toBe(200);
    expect(edit.json<{ alert: ApiAlertRule }>().alert).toMatchObject({ name: 'edited', threshold: 9 });
    await as(h, 'owner-a', 'DELETE', `/alerts/${created.id}`);
    await waitFor(() => h.published.filter((m) => m.headers['event-type'] === AuditRecordedEvent.type && JSON.stringify(m.payload).includes(created.id)).length >= 3, 'alert audit entries');
    const actions = h.published
      .filter((m) => m.headers['event-type'] === AuditRecordedEvent.type)
      .map((m) => (m.payload as { data: { action: string; details: Record<string, unknown> } }).data)
      .filter((d) => d.details['alertId'] === created.id)
      .map((d) => d.action);
    expect(actions).toEqual(['alert.created', 'alert.updated', 'alert.deleted']);
  });

  it("sends a test notification to the rule's webhooks, signed", async () => {
    const created = await createRule(rule({ name: 'tested' }));
    const before = receiver.requests.length;
    const res = await as(h, 'owner-a', 'POST', `/alerts/${created.id}/test`);
    expect(res.statusCode).toBe(200);
    expect(res.json<AlertTestResult>()).toEqual({ results: [{ webhookId: genericId, ok: true, statusCode: 200, error: null }] });
    const got = receiver.requests[before]!;
    expect(got.body).toMatchObject({ type: 'alert.firing', data: { rule: { id: created.id, name: '[Test] tested' } } });
    const id = got.headers['webhook-id'] as string;
    const ts = Number(got.headers['webhook-timestamp']);
    expect(got.headers['webhook-signature']).toBe(signatureOf(genericSecret, id, ts, got.raw));
    await as(h, 'owner-a', 'DELETE', `/alerts/${created.id}`);
  });
});

describe('alert evaluation as logs arrive', () => {
  it('a burst that crosses the threshold and falls back under it sends exactly one firing and one resolved message', async () => {
    const created = await createRule(rule({ name: 'Burst', threshold: 10, windowSeconds: 300 }));
    // Seven matching logs and noise that does not match: under the threshold.
    await publishBatch(h, A, [...antiCheat(7), acceptedLog({ level: 'info', type: 'AntiCheat' }), acceptedLog({ level: 'error', type: 'Chat' })]);
    await evaluated();
    clock += 1_000;
    await publishBatch(h, A, antiCheat(2));
    await evaluated();
    expect(alertMessages(created.id)).toHaveLength(0);
    // The tenth matching log fires it; more logs while firing send nothing more.
    clock += 1_000;
    await publishBatch(h, A, antiCheat(1));
    await waitFor(() => alertMessages(created.id).length === 1, 'the firing message');
    for (let i = 0; i < 3; i++) {
      clock += 1_000;
      await publishBatch(h, A, antiCheat(5));
      await evaluated();
    }
    const firing = alertMessages(created.id)[0]!.body as { type: string; data: { count: number; logs: unknown[]; link: string; summary: string } };
    expect(firing.type).toBe('alert.firing');
    expect(firing.data.count).toBe(10);
    expect(firing.data.logs).toHaveLength(1);
    expect(firing.data.link).toBe(`https://skald.test/logs?serverId=${A}&level=error&type=AntiCheat`);
    expect(firing.data.summary).toBe('Burst: 10 matching logs in the last 5 min (threshold 10)');
    expect((await ruleOf(created.id)).state).toBe('firing');

    // Time passes with no logs: the window empties and the rule resolves once.
    clock += 301_000;
    await waitFor(() => alertMessages(created.id).length === 2, 'the resolved message');
    const resolved = alertMessages(created.id)[1]!.body as { type: string; data: { count: number } };
    expect(resolved).toMatchObject({ type: 'alert.resolved', data: { count: 0 } });
    const view = await ruleOf(created.id);
    expect(view).toMatchObject({ state: 'ok', lastFiredAt: expect.any(String), lastResolvedAt: new Date(clock).toISOString() });
    // More ticks pass: nothing more is sent.
    const sent = receiver.requests.length;
    const seen = ticks;
    await waitFor(() => ticks >= seen + 3, 'three more evaluation ticks');
    expect(receiver.requests.length).toBe(sent);
    expect(alertMessages(created.id).map((r) => r.body['type'])).toEqual(['alert.firing', 'alert.resolved']);

    const history = (await as(h, 'owner-a', 'GET', `/alerts/${created.id}/history?limit=10`)).json<AlertHistory>();
    expect(history.events.map((e) => [e.state, e.count])).toEqual([
      ['resolved', 0],
      ['firing', 10],
    ]);
    expect(history.events[1]!.sample[0]).toMatchObject({ level: 'error', type: 'AntiCheat', message: 'speed hack suspected' });
    await as(h, 'owner-a', 'DELETE', `/alerts/${created.id}`);
  });

  it('does not fire again within the cooldown after resolving, and fires once it has passed', async () => {
    const created = await createRule(rule({ name: 'Cooldown', threshold: 2, windowSeconds: 10, cooldownSeconds: 120 }));
    await publishBatch(h, A, antiCheat(2));
    await waitFor(() => alertMessages(created.id).length === 1, 'first firing');
    await evaluated();
    clock += 11_000;
    await waitFor(() => alertMessages(created.id).length === 2, 'resolved');
    clock += 30_000;
    await publishBatch(h, A, antiCheat(3));
    await evaluated();
    // Inside the cooldown: the window holds 3 but the rule stays ok.
    expect((await ruleOf(created.id)).state).toBe('ok');
    expect(alertMessages(created.id)).toHaveLength(2);
    clock += 100_000;
    await publishBatch(h, A, antiCheat(2));
    await waitFor(() => alertMessages(created.id).length === 3, 'firing after the cooldown');
    expect(alertMessages(created.id)[2]!.body['type']).toBe('alert.firing');
    await as(h, 'owner-a', 'DELETE', `/alerts/${created.id}`);
  });

  it('absence fires after the window without a matching log, and resolves on the next one', async () => {
    const created = await createRule(rule({ name: 'Heartbeat', kind: 'absence', threshold: null, filter: { type: 'Heartbeat' }, windowSeconds: 900 }));
    clock += 600_000;
    await publishBatch(h, A, [acceptedLog({ type: 'Chat' })]);
    await evaluated();
    clock += 299_000;
    await publishBatch(h, A, [acceptedLog({ type: 'Chat' })]);
    await evaluated();
    expect(alertMessages(created.id)).toHaveLength(0);
    clock += 1_000;
    await waitFor(() => alertMessages(created.id).length === 1, 'absence firing');
    expect(alertMessages(created.id)[0]!.body).toMatchObject({ type: 'alert.firing', data: { count: 900, summary: 'Heartbeat: no matching log for 15 min (window 15 min)' } });
    clock += 60_000;
    await publishBatch(h, A, [acceptedLog({ type: 'Heartbeat', message: 'alive' })]);
    await waitFor(() => alertMessages(created.id).length === 2, 'absence resolved');
    expect(alertMessages(created.id)[1]!.body).toMatchObject({ type: 'alert.resolved', data: { count: 960, logs: [{ message: 'alive' }] } });
    expect((await ruleOf(created.id)).state).toBe('ok');
    await as(h, 'owner-a', 'DELETE', `/alerts/${created.id}`);
  });
});
