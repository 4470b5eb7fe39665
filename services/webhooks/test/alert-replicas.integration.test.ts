/**
 * With several replicas of the webhooks service each alert rule is evaluated once (docs/ALERTS.md,
 * "Evaluation"). Two service instances run on the distributed adapters that run here for real: each has
 * its own Redis Streams event bus connection (both in the `webhooks-alerts` consumer group, so each takes
 * part of the accepted-logs stream) and its own BullMQ queue and worker on one Redis queue (deliveries and
 * the repeatable `alert-tick` job go to either). The distributed DocumentStore is MongoDB, absent here, and
 * the embedded SQLite document store is not safe to share across processes, so the two instances live in
 * ONE process and share one embedded document store object: the model of two replicas over one MongoDB.
 * Their races (two consumers counting into one window, two deciding the same transition, tick and batch)
 * are decided by the store's conditional updates, which is what this test holds: a gate holds each
 * replica's alert consumer until both were handed a crossing batch, so the race is staged, not hoped for.
 * Messages reach a real local receiver (port 0; 127.0.0.1 allowed as OUTBOUND_ALLOWED_HOSTS would).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventBus, createJobQueue } from '@skald/adapters';
import { ALL_TOPICS } from '@skald/contracts';
import type { AlertList, ApiAlertRule } from '@skald/contracts';
import type { EventBus, JobQueue, SubscribeOptions } from '@skald/ports';
import { createOutboundGuard } from '@skald/service-kit';
import { TEST_REDIS_URL, createTestDeps, deleteRedisKeys, redisReachable, waitFor } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import { ALERTS_CONSUMER_GROUP } from '../src/events/alert-consumer.ts';
import { acceptedLog, as, createHarness, createWebhook, publishBatch, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { startReceiver } from './support/receiver.ts';
import type { Receiver } from './support/receiver.ts';

const reachable = await redisReachable(TEST_REDIS_URL);
if (!reachable) console.log(`skipped: alert rules across two webhooks replicas: Redis not reachable at ${TEST_REDIS_URL}`);

const SERVER = 'srv-alert-replicas';
const prefix = `skaldtest-alerts-${randomBytes(6).toString('hex')}`;
let clock = Date.UTC(2026, 10, 3, 9, 0, 0);
let ticks = 0;

interface Replica {
  readonly name: string;
  readonly harness: Harness;
  readonly bus: EventBus;
  readonly jobs: JobQueue;
  /** Accepted-logs messages this replica's alert consumer was handed. */
  alertMessages: number;
}

const replicas: Replica[] = [];
const opened: { base?: TestDeps; deps: TestDeps[]; receiver?: Receiver } = { deps: [] };
let receiver: Receiver;
let webhookId = '';

/**
 * While armed, holds each replica's alert consumer at the door until both replicas were handed a message,
 * then lets them evaluate together: both read the rule as `ok` and both see the window past the threshold,
 * the race the conditional transition must decide (without the hold it is a matter of luck).
 */
const gate = { armed: false, holding: [] as (() => void)[], met: 0 };
async function throughGate(): Promise<void> {
  if (!gate.armed) return;
  await new Promise<void>((resolve) => {
    gate.holding.push(resolve);
    if (gate.holding.length < replicas.length) return;
    gate.armed = false;
    gate.met += 1;
    for (const release of gate.holding.splice(0)) release();
  });
}

/** The bus, counting the messages handed to this instance's alert consumer group (which replica took part), through the gate. */
function countingAlertMessages(bus: EventBus, replica: { alertMessages: number }): EventBus {
  const subscribe = (options: SubscribeOptions) => {
    if (options.group !== ALERTS_CONSUMER_GROUP) return bus.subscribe(options);
    const { batchHandler } = options;
    return bus.subscribe({
      ...options,
      handler: async (message) => {
        replica.alertMessages += 1;
        await throughGate();
        await options.handler(message);
      },
      ...(batchHandler
        ? {
            batchHandler: async (messages) => {
              replica.alertMessages += messages.length;
              await throughGate();
              await batchHandler(messages);
            },
          }
        : {}),
    });
  };
  return new Proxy(bus, {
    get(target, property) {
      if (property === 'subscribe') return subscribe;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function startReplica(name: string, base: TestDeps | undefined): Promise<Replica> {
  const bus = await createEventBus({ kind: 'redis', url: TEST_REDIS_URL, prefix: `${prefix}:bus:`, blockMs: 200 });
  await bus.ensureTopics(ALL_TOPICS);
  const jobs = await createJobQueue({ kind: 'bullmq', url: TEST_REDIS_URL, prefix: `${prefix}:jobs` });
  const replica = { name, bus, jobs, alertMessages: 0 } as Replica;
  // The second replica shares the first one's document store object, keys and secrets key (the secrets box
  // must open the webhook secret the other replica sealed), as replicas share MongoDB and their settings.
  const deps = await createTestDeps({
    service: 'webhooks',
    ...(base ? { shareWith: base } : {}),
    overrides: { bus: countingAlertMessages(bus, replica), jobs, outbound: createOutboundGuard({ allowed: ['127.0.0.1'] }), ...(base ? { docs: base.docs } : {}) },
  });
  opened.deps.push(deps);
  const harness = await createHarness({ now: () => clock, alertTickMs: 50, alertMinWindowSeconds: 10, onAlertTick: () => void (ticks += 1) }, { deps });
  return Object.assign(replica, { harness });
}

const first = (): Replica => replicas[0]!;
const alertMessagesOf = (ruleId: string) => receiver.requests.filter((r) => (r.body['data'] as { rule?: { id?: string } } | undefined)?.rule?.id === ruleId);
const ruleOf = async (id: string) => (await as(first().harness, 'owner', 'GET', `/alerts?serverId=${SERVER}`)).json<AlertList>().alerts.find((a) => a.id === id)!;

/** Both replicas' alert consumers have evaluated everything published (lag counts pending entries too). */
async function evaluated(): Promise<void> {
  await waitFor(async () => {
    const lags = (await first().bus.consumerLag?.()) ?? [];
    const alerts = lags.filter((l) => l.group === ALERTS_CONSUMER_GROUP);
    return alerts.length > 0 && alerts.every((l) => l.lag === 0);
  }, 'the alert consumer group caught up');
}

/** Evaluation ticks (of either replica) run after this call: time the fake clock moved is seen. */
async function moreTicks(n: number): Promise<void> {
  const seen = ticks;
  await waitFor(() => ticks >= seen + n, `${n} more evaluation ticks`, 20_000);
}

const matching = () => [acceptedLog({ level: 'error', type: 'AntiCheat', message: 'speed hack suspected' })];

async function createRule(body: Record<string, unknown>): Promise<ApiAlertRule> {
  const res = await as(first().harness, 'owner', 'POST', '/alerts', { serverId: SERVER, webhookIds: [webhookId], enabled: true, ...body });
  if (res.statusCode !== 201) throw new Error(`create alert: ${res.statusCode} ${res.body}`);
  return res.json<{ alert: ApiAlertRule }>().alert;
}

describe.skipIf(!reachable)('alert rules across two webhooks replicas (Redis Streams, BullMQ, one document store)', () => {
  beforeAll(async () => {
    receiver = await startReceiver();
    opened.receiver = receiver;
    replicas.push(await startReplica('A', undefined));
    replicas.push(await startReplica('B', opened.deps[0]));
    const a = first().harness;
    await a.identity.user('owner');
    await seedServer(a, { serverId: SERVER, ownerId: 'owner', tier: 'legend' });
    // Replica B reads the server from the shared store (replica A's identity consumer may have written it).
    await waitFor(async () => (await as(replicas[1]!.harness, 'owner', 'GET', `/alerts?serverId=${SERVER}`)).statusCode === 200, 'replica B knows the server');
    webhookId = (await createWebhook(a, 'owner', { serverId: SERVER, url: receiver.url, platform: 'generic' })).id;
  }, 60_000); // starts two webhooks replicas on Redis

  afterAll(async () => {
    // Replica B first: it borrowed A's document store.
    for (const replica of [...replicas].reverse()) {
      await replica.harness.close();
      await replica.bus.close();
      await replica.jobs.close();
    }
    for (const deps of [...opened.deps].reverse()) await deps.cleanup();
    await opened.receiver?.close();
    if (reachable) await deleteRedisKeys(TEST_REDIS_URL, prefix);
  });

  // timeout: a burst and its fall-back span two alert windows
  it('a burst through both replicas fires once, and resolves once after it falls back', { timeout: 90_000 }, async () => {
    const rule = await createRule({ name: 'Replicated burst', kind: 'threshold', filter: { level: 'error', type: 'AntiCheat' }, threshold: 10, windowSeconds: 60 });
    // Eight matching logs, one batch each, each evaluated before the next: the group hands them to both consumers in turn.
    for (let i = 0; i < 8; i++) {
      await publishBatch(first().harness, SERVER, [...matching(), acceptedLog({ level: 'info', type: 'AntiCheat' })]);
      await evaluated();
    }
    expect(alertMessagesOf(rule.id)).toHaveLength(0);
    // Two batches of two, one on each replica, evaluated together (the gate): the window goes to 10 and 12,
    // both replicas decide to fire, and the conditional transition lets one of them.
    gate.armed = true;
    await publishBatch(first().harness, SERVER, [...matching(), ...matching()]);
    await waitFor(() => gate.holding.length === 1, 'one replica holding the first crossing batch');
    // The holding replica is not reading the stream: the second batch goes to the other one.
    await publishBatch(replicas[1]!.harness, SERVER, [...matching(), ...matching()]);
    await waitFor(() => gate.met === 1, 'both replicas evaluating a crossing batch at once');
    await evaluated();
    await waitFor(() => alertMessagesOf(rule.id).length >= 1, 'the firing message');
    expect(replicas.map((r) => r.alertMessages).every((n) => n > 0), `both replicas evaluated part of the burst (${replicas.map((r) => `${r.name}: ${r.alertMessages}`).join(', ')})`).toBe(true);
    expect(replicas.reduce((sum, r) => sum + r.alertMessages, 0), 'each batch evaluated once across the replicas').toBe(10);
    await moreTicks(2);
    expect(alertMessagesOf(rule.id)).toHaveLength(1);
    const firing = alertMessagesOf(rule.id)[0]!.body as { type: string; data: { count: number } };
    expect(firing.type).toBe('alert.firing');
    expect(firing.data.count).toBeGreaterThanOrEqual(10);
    expect((await ruleOf(rule.id)).state).toBe('firing');

    // The window empties; the tick job (one run per period across both BullMQ workers) resolves it once.
    clock += 61_000;
    await waitFor(() => alertMessagesOf(rule.id).length >= 2, 'the resolved message', 20_000);
    await moreTicks(4);
    expect(alertMessagesOf(rule.id).map((r) => [r.body['type'], (r.body['data'] as { count: number }).count])).toEqual([
      ['alert.firing', firing.data.count],
      ['alert.resolved', 0],
    ]);
    expect((await ruleOf(rule.id)).state).toBe('ok');
    const history = (await as(replicas[1]!.harness, 'owner', 'GET', `/alerts/${rule.id}/history`)).json<{ events: { state: string }[] }>();
    expect(history.events.map((e) => e.state)).toEqual(['resolved', 'firing']);
    await as(first().harness, 'owner', 'DELETE', `/alerts/${rule.id}`);
  });

  // timeout: an absence rule fires only after its silent window
  it('an absence rule fires once across both replicas, and resolves once on the next log', { timeout: 90_000 }, async () => {
    const rule = await createRule({ name: 'Replicated heartbeat', kind: 'absence', filter: { type: 'Heartbeat' }, threshold: null, windowSeconds: 120 });
    await moreTicks(2);
    expect(alertMessagesOf(rule.id)).toHaveLength(0);
    clock += 120_000;
    await waitFor(() => alertMessagesOf(rule.id).length >= 1, 'the absence firing', 20_000);
    await moreTicks(4);
    expect(alertMessagesOf(rule.id)).toHaveLength(1);
    expect(alertMessagesOf(rule.id)[0]!.body).toMatchObject({ type: 'alert.firing', data: { count: 120 } });

    clock += 5_000;
    // A heartbeat on each replica, evaluated together (the gate): both decide to resolve, one does.
    gate.armed = true;
    await publishBatch(first().harness, SERVER, [acceptedLog({ type: 'Heartbeat', message: 'alive 1' })]);
    await waitFor(() => gate.holding.length === 1, 'one replica holding the first heartbeat');
    await publishBatch(replicas[1]!.harness, SERVER, [acceptedLog({ type: 'Heartbeat', message: 'alive 2' })]);
    await waitFor(() => gate.met === 2, 'both replicas evaluating a heartbeat at once');
    await evaluated();
    await waitFor(() => alertMessagesOf(rule.id).length >= 2, 'the absence resolved', 20_000);
    await moreTicks(4);
    expect(alertMessagesOf(rule.id).map((r) => r.body['type'])).toEqual(['alert.firing', 'alert.resolved']);
    expect((await ruleOf(rule.id)).state).toBe('ok');
    // One transition each way recorded (a second resolve would share the delivery id, but not the history).
    const history = (await as(replicas[1]!.harness, 'owner', 'GET', `/alerts/${rule.id}/history`)).json<{ events: { state: string }[] }>();
    expect(history.events.map((e) => e.state)).toEqual(['resolved', 'firing']);
  });
});
