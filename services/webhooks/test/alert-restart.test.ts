/**
 * Alert state across a restart (a new instance opening the same document store and bus):
 *  - an absence rule's clock is durable: the service stops halfway through the window, and the rule fires
 *    on time (one tick after the window ends), once;
 *  - a batch the bus hands out again counts once, before and after the restart;
 *  - a transition whose notification could not be queued (the queue failing, then the process gone) is
 *    notified once by the next instance, from the rule's outbox.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ALERTS_CONSUMER_GROUP } from '../src/events/alert-consumer.ts';
import { DELIVERY_QUEUE } from '../src/domain/delivery.ts';
import type { AcceptedLog, AlertHistory, ApiAlertRule } from '@skald/contracts';
import type { JobQueue } from '@skald/ports';
import { createTestDeps, waitFor } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import { acceptedLog, as, createHarness, createWebhook, publishBatch, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { startReceiver } from './support/receiver.ts';
import type { ReceivedRequest, Receiver } from './support/receiver.ts';

const A = 'srv-restart';
let clock = Date.UTC(2026, 10, 2, 8, 0, 0);
const open: { harness?: Harness; deps: TestDeps[]; receiver?: Receiver } = { deps: [] };

beforeAll(async () => {
  open.receiver = await startReceiver();
});

afterAll(async () => {
  await open.harness?.close();
  for (const deps of open.deps.reverse()) await deps.cleanup();
  await open.receiver?.close();
});

const ticks = { count: 0 };
const options = { now: () => clock, alertTickMs: 25, alertMinWindowSeconds: 10, onAlertTick: () => void (ticks.count += 1) };

/**
 * An instance of the service: over a new folder, or over the files of `shareWith` (a restart: its document
 * store opened anew, the same bus). `jobs` wraps the queue this instance sees.
 */
async function startInstance(from: { shareWith?: TestDeps; jobs?: (jobs: JobQueue) => JobQueue } = {}): Promise<{ deps: TestDeps; harness: Harness }> {
  const deps = await createTestDeps(from.shareWith ? { service: 'webhooks', shareWith: from.shareWith } : { service: 'webhooks' });
  open.deps.push(deps);
  const harness = await createHarness(options, { deps: from.jobs ? { ...deps, jobs: from.jobs(deps.jobs) } : deps });
  open.harness = harness;
  return { deps, harness };
}

/** The running instance stops (its files stay for the next). */
async function stopInstance(): Promise<void> {
  await open.harness?.close();
  open.harness = undefined;
}

/** The owner, the server, a generic webhook to the receiver, and the enabled rule sending to it (201). */
async function createRule(h: Harness, serverId: string, rule: Record<string, unknown>): Promise<ApiAlertRule> {
  await h.identity.user('owner');
  await seedServer(h, { serverId, ownerId: 'owner', tier: 'starter' });
  const webhook = await createWebhook(h, 'owner', { serverId, url: open.receiver!.url, platform: 'generic' });
  const res = await as(h, 'owner', 'POST', '/alerts', { serverId, ...rule, webhookIds: [webhook.id], enabled: true });
  expect(res.statusCode).toBe(201);
  return res.json<{ alert: ApiAlertRule }>().alert;
}

/** The messages the receiver got about the rule. */
const messagesOf = (ruleId: string): ReceivedRequest[] =>
  open.receiver!.requests.filter((r) => (r.body['data'] as { rule?: { id?: string } } | undefined)?.rule?.id === ruleId);

it('fires an absence rule on time after a restart in the middle of its window', async () => {
  const receiver = open.receiver!;
  const { deps: first, harness: before } = await startInstance();
  const rule = await createRule(before, A, { name: 'Server heartbeat', kind: 'absence', filter: { type: 'Heartbeat' }, windowSeconds: 600 });

  clock += 300_000;
  await stopInstance();

  // A new instance over the same files (its document store opened anew); the fake clock goes on.
  const { harness: after } = await startInstance({ shareWith: first });
  clock += 299_000;
  const listed = await as(after, 'owner', 'GET', `/alerts?serverId=${A}`);
  expect(listed.json<{ alerts: ApiAlertRule[] }>().alerts[0]).toMatchObject({ id: rule.id, state: 'ok' });
  expect(receiver.requests).toHaveLength(0);

  clock += 1_000;
  await waitFor(() => receiver.requests.length === 1, 'the absence firing after the restart');
  expect(receiver.requests[0]!.body).toMatchObject({ type: 'alert.firing', data: { rule: { id: rule.id }, count: 600 } });
  expect((await as(after, 'owner', 'GET', `/alerts?serverId=${A}`)).json<{ alerts: ApiAlertRule[] }>().alerts[0]!.state).toBe('firing');
});

/** The alert group has evaluated everything published on the (shared) bus. */
async function evaluated(deps: TestDeps): Promise<void> {
  await waitFor(async () => {
    const lags = ((await deps.bus.consumerLag?.()) ?? []).filter((l) => l.group === ALERTS_CONSUMER_GROUP);
    return lags.length > 0 && lags.every((l) => l.lag === 0);
  }, 'the alert consumer caught up');
}

const antiCheat = (n: number): AcceptedLog[] => Array.from({ length: n }, () => acceptedLog({ level: 'error', type: 'AntiCheat', message: 'speed hack suspected' }));
const stateOf = async (h: Harness, serverId: string, id: string) => (await as(h, 'owner', 'GET', `/alerts?serverId=${serverId}`)).json<{ alerts: ApiAlertRule[] }>().alerts.find((a) => a.id === id)!.state;

it('counts a batch handed out again once, before and after a restart', async () => {
  const server = 'srv-redelivered';
  const { deps: first, harness: before } = await startInstance();
  const rule = await createRule(before, server, { name: 'Cheaters', kind: 'threshold', filter: { type: 'AntiCheat' }, threshold: 3, windowSeconds: 600 });
  const messages = () => messagesOf(rule.id);

  // Two matching logs, then the same batch again (as the bus redelivers it): 2 in the window, not 4.
  const batch = antiCheat(2);
  await publishBatch(before, server, batch);
  await evaluated(first);
  await publishBatch(before, server, batch);
  await evaluated(first);
  expect(await stateOf(before, server, rule.id)).toBe('ok');
  await stopInstance();

  // After the restart the batch comes once more: still 2. A third matching log makes 3 and fires.
  const { deps: second, harness: after } = await startInstance({ shareWith: first });
  clock += 1_000;
  await publishBatch(after, server, batch);
  await evaluated(second);
  expect(await stateOf(after, server, rule.id)).toBe('ok');
  expect(messages()).toHaveLength(0);
  await publishBatch(after, server, antiCheat(1));
  await waitFor(() => messages().length === 1, 'the firing message');
  expect(messages()[0]!.body).toMatchObject({ type: 'alert.firing', data: { count: 3 } });
  await stopInstance();
});

/** The job queue, refusing alert notifications while `refuse.on` (the queue down at that moment). */
function refusingAlerts(jobs: JobQueue, refuse: { on: boolean; refused: number }): JobQueue {
  return new Proxy(jobs, {
    get(target, property) {
      if (property === 'add') {
        return async (...args: Parameters<JobQueue['add']>) => {
          const [queue, , data] = args;
          if (refuse.on && queue === DELIVERY_QUEUE && String((data as { deliveryId?: unknown }).deliveryId).startsWith('alert_')) {
            refuse.refused += 1;
            throw new Error('queue unavailable');
          }
          return target.add(...args);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

it('notifies a transition once after a restart when its notification could not be queued', async () => {
  const server = 'srv-outbox';
  const refuse = { on: true, refused: 0 };
  const { deps: base, harness: before } = await startInstance({ jobs: (jobs) => refusingAlerts(jobs, refuse) });
  const rule = await createRule(before, server, { name: 'Outbox', kind: 'threshold', filter: { type: 'AntiCheat' }, threshold: 3, windowSeconds: 600 });
  const messages = () => messagesOf(rule.id);

  // The transition is stored (firing) but its notification is refused, by the batch and by the ticks after it.
  await publishBatch(before, server, antiCheat(3));
  await waitFor(async () => (await stateOf(before, server, rule.id)) === 'firing', 'the rule firing');
  await waitFor(() => refuse.refused >= 3, 'the notification refused by the batch and by later ticks');
  expect(messages()).toHaveLength(0);
  await stopInstance();

  // The next instance (the queue working again) sends it from the outbox: once, with the firing's facts.
  const { harness: after } = await startInstance({ shareWith: base });
  await waitFor(() => messages().length === 1, 'the firing message from the outbox');
  const seen = ticks.count;
  await waitFor(() => ticks.count >= seen + 3, 'three more ticks');
  expect(messages()).toHaveLength(1);
  expect(messages()[0]!.body).toMatchObject({ type: 'alert.firing', data: { count: 3, logs: [{ message: 'speed hack suspected' }, {}, {}] } });
  const history = (await as(after, 'owner', 'GET', `/alerts/${rule.id}/history`)).json<AlertHistory>();
  expect(history.events.map((e) => [e.state, e.count])).toEqual([['firing', 3]]);
  await stopInstance();
});
