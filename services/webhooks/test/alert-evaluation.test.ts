/**
 * The alert evaluator's memory (docs/ALERTS.md, "Cost"): the grouped matcher finds exactly the logs each
 * rule's own filter finds, and a server's rules kept in memory between bus reads follow a change written
 * by another replica (straight into the shared store here), read from the server's version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { AcceptedLog, AlertFilter, LogsBatchAccepted } from '@skald/contracts';
import type { JobQueue } from '@skald/ports';
import { createTestDeps } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import { createAlertEvaluator } from '../src/domain/alerts/alert-evaluator.ts';
import { alertMatches } from '../src/domain/alerts/alert-filter.ts';
import { createRuleMatcher } from '../src/domain/alerts/alert-matcher.ts';
import { createAlertStore } from '../src/domain/alerts/alert-store.ts';
import type { AlertSettings, AlertStore } from '../src/domain/alerts/alert-store.ts';
import { DELIVERY_QUEUE } from '../src/domain/delivery.ts';
import type { Webhook } from '../src/domain/webhook-store.ts';
import { acceptedLog } from './support/harness.ts';

describe('the grouped rule matcher', () => {
  it('finds for each rule exactly the logs its own filter matches, with the last five as the sample', () => {
    const filters: AlertFilter[] = [
      {},
      { type: 'AntiCheat' },
      { type: 'anticheat', level: 'error' },
      { resource: 'QB-Core' },
      { resource: 'qb-core', search: 'JOINED' },
      { level: 'warn' },
      { level: 'error', search: 'hack' },
      { search: 'hack' },
      { metadata: { citizenid: 'ABC1' } },
      { metadata: { source: '3' } },
      { type: 'Chat', resource: 'chat', level: 'info', search: 'hello', metadata: { citizenid: 'ABC1' } },
      { type: 'AntiCheat' },
    ];
    const rules = filters.map((filter, i) => ({ id: `r${i}`, filter }));
    const types = ['AntiCheat', 'anticheat', 'Chat', 'General'];
    const resources = ['qb-core', 'QB-CORE', 'chat', 'es_extended'];
    const levels = ['info', 'warn', 'error', 'fatal', 'debug'] as const;
    const messages = ['Player joined', 'speed HACK suspected', 'hello world', 'nothing'];
    const logs: AcceptedLog[] = Array.from({ length: 400 }, (_, i) =>
      acceptedLog({
        type: types[i % types.length]!,
        resource: resources[Math.floor(i / 4) % resources.length]!,
        level: levels[Math.floor(i / 16) % levels.length]!,
        message: messages[Math.floor(i / 80) % messages.length]!,
        metadata: i % 3 === 0 ? { citizenid: i % 2 === 0 ? 'ABC1' : 'ZZZ', source: i % 7 } : null,
      }),
    );
    const found = createRuleMatcher(rules, 5).match(logs);
    for (const rule of rules) {
      const expected = logs.filter((log) => alertMatches(rule.filter, log));
      const got = found.get(rule);
      if (expected.length === 0) {
        expect(got, rule.id).toBeUndefined();
        continue;
      }
      expect(got?.count, rule.id).toBe(expected.length);
      expect(got?.sample.map((l) => l.id), rule.id).toEqual(expected.slice(-5).map((l) => l.id));
    }
  });
});

describe("a server's rules in memory", () => {
  const serverId = 'srv-cache';
  let deps: TestDeps;
  let store: AlertStore;
  const queued: string[] = [];
  const clock = { now: Date.UTC(2026, 10, 5, 10, 0, 0) };

  beforeAll(async () => {
    deps = await createTestDeps({ service: 'webhooks' });
    store = await createAlertStore(deps.docs);
  });
  afterAll(async () => deps.cleanup());

  const webhook: Webhook = { id: 'wh-1', serverId, platform: 'generic', url: 'https://example.test/hook', chatId: null, secret: null, enabled: true, createdAt: 0, eventType: null, logLevel: null, resource: null };
  const jobs = new Proxy({} as JobQueue, {
    get: (_target, property) =>
      property === 'add'
        ? async (queue: string, _name: string, data: { deliveryId: string }) => {
            if (queue === DELIVERY_QUEUE) queued.push(data.deliveryId);
            return 'job';
          }
        : undefined,
  });
  const evaluator = () =>
    createAlertEvaluator({
      alerts: store,
      webhooks: { byId: async (id) => (id === webhook.id ? webhook : null) },
      directory: { server: async (id) => ({ id, name: 'Cache test', ownerId: 'owner', tier: 'starter', suspended: false }) },
      jobs,
      publicUrl: 'https://skald.test',
      log: pino({ level: 'silent' }),
      now: () => clock.now,
    });
  const batch = (logs: AcceptedLog[]): LogsBatchAccepted => ({ serverId, logs });
  const logsOf = (type: string, n: number) => Array.from({ length: n }, () => acceptedLog({ type }));
  const settings = (type: string): AlertSettings => ({ name: 'Cached', kind: 'threshold', filter: { type }, threshold: 2, windowSeconds: 60, webhookIds: [webhook.id], cooldownSeconds: 0, enabled: true });

  it('follows an edit, a new rule and a delete written by another replica, at the next read', async () => {
    const a = evaluator();
    const rule = await store.create(serverId, settings('AntiCheat'), clock.now);
    await a.onBatches([batch(logsOf('Chat', 1))]);
    expect(queued).toHaveLength(0);

    // Another replica changes the rule's filter: this one's memory must not go on counting AntiCheat.
    clock.now += 1_000;
    await store.update(serverId, rule.id, settings('Chat'), clock.now);
    await a.onBatches([batch(logsOf('AntiCheat', 3))]);
    expect(queued).toHaveLength(0);
    await a.onBatches([batch(logsOf('Chat', 2))]);
    expect(queued).toEqual([`alert_${rule.id}_1_firing_${webhook.id}`]);

    // A rule added elsewhere is evaluated at the next read; one deleted elsewhere is not.
    const added = await store.create(serverId, settings('Heartbeat'), clock.now);
    await store.remove(serverId, rule.id);
    clock.now += 1_000;
    await a.onBatches([batch([...logsOf('Heartbeat', 2), ...logsOf('Chat', 5)])]);
    expect(queued).toEqual([`alert_${rule.id}_1_firing_${webhook.id}`, `alert_${added.id}_1_firing_${webhook.id}`]);
  });
});
