/**
 * The alert evaluator's memory (docs/ALERTS.md, "Cost"): the grouped matcher finds exactly the logs each
 * rule's own filter finds, and a server's rules kept in memory between bus reads follow a change written
 * through this replica's store at once, and one written by another replica (a second store object over the
 * same documents here) once the server's version is read again (REFRESH_MS of wall time, a fake wall clock).
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
import { REFRESH_MS } from '../src/domain/alerts/alert-server-cache.ts';
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
      // Found through the map of metadata (the first entry), the second entry checked by the test.
      { metadata: { citizenid: 'ABC1', source: '0' } },
      // Searches alone, found by one scan of the message (alert-search-scan.ts): texts inside one another, one a
      // prefix of another (both at one position), one overlapping another, one with metadata to test too.
      { search: 'JOINED' },
      { search: 'world' },
      { search: 'hack (' },
      { search: 'speed hack' },
      { search: 'HACK suspected' },
      { search: 'hack' },
      { search: 'sus' },
      { search: 'd hack s' },
      { search: 'joined', metadata: { citizenid: 'ABC1' } },
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
    const matcher = createRuleMatcher(rules, 5);
    // Twice: the second call starts from the tallies the first left (kept between calls), and must find the same.
    for (const call of [1, 2]) {
      const found = new Map(matcher.match(logs).flatMap((m) => m.rules.map((rule) => [rule, m] as const)));
      for (const rule of rules) {
        const expected = logs.filter((log) => alertMatches(rule.filter, log));
        const got = found.get(rule);
        if (expected.length === 0) {
          expect(got, `${rule.id}, call ${call}`).toBeUndefined();
          continue;
        }
        expect(got?.count, `${rule.id}, call ${call}`).toBe(expected.length);
        expect(got?.sample(logs).map((l) => l.id), `${rule.id}, call ${call}`).toEqual(expected.slice(-5).map((l) => l.id));
      }
    }
    // A call on fewer logs after one on many: a sample holds only this call's logs.
    const few = logs.slice(0, 3);
    for (const m of matcher.match(few)) expect(m.sample(few).every((l) => few.includes(l as AcceptedLog))).toBe(true);
  });
});

describe("a server's rules in memory", () => {
  const serverId = 'srv-cache';
  let deps: TestDeps;
  let store: AlertStore;
  /** Another replica's store: the same documents, its own object (its writes are not seen in this process). */
  let elsewhere: AlertStore;
  const queued: string[] = [];
  const clock = { now: Date.UTC(2026, 10, 5, 10, 0, 0) };
  const wall = { ms: 0 };

  beforeAll(async () => {
    deps = await createTestDeps({ service: 'webhooks' });
    store = await createAlertStore(deps.docs);
    elsewhere = await createAlertStore(deps.docs);
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
  /** A replica's evaluator over `alerts` (another store object stands for another replica's writes). */
  const evaluator = (alerts: AlertStore = store) =>
    createAlertEvaluator({
      alerts,
      webhooks: { byId: async (id) => (id === webhook.id ? webhook : null) },
      directory: { server: async (id) => ({ id, name: 'Cache test', ownerId: 'owner', tier: 'starter', suspended: false }) },
      jobs,
      publicUrl: 'https://skald.test',
      log: pino({ level: 'silent' }),
      now: () => clock.now,
    }, { wallMs: () => wall.ms });
  const batch = (logs: AcceptedLog[]): LogsBatchAccepted => ({ serverId, logs });
  const logsOf = (type: string, n: number) => Array.from({ length: n }, () => acceptedLog({ type }));
  const settings = (type: string): AlertSettings => ({ name: 'Cached', kind: 'threshold', filter: { type }, threshold: 2, windowSeconds: 60, webhookIds: [webhook.id], cooldownSeconds: 0, enabled: true });

  it('follows an edit, a new rule and a delete written by another replica, once it reads the version again', async () => {
    const a = evaluator();
    const rule = await elsewhere.create(serverId, settings('AntiCheat'), clock.now);
    await a.onBatches([batch(logsOf('Chat', 1))]);
    expect(queued).toHaveLength(0);

    // Another replica changes the rule's filter: this one's memory must not go on counting AntiCheat.
    clock.now += 1_000;
    await elsewhere.update(serverId, rule.id, settings('Chat'), clock.now);
    wall.ms += REFRESH_MS;
    await a.onBatches([batch(logsOf('AntiCheat', 3))]);
    expect(queued).toHaveLength(0);
    await a.onBatches([batch(logsOf('Chat', 2))]);
    expect(queued).toEqual([`alert_${rule.id}_1_firing_${webhook.id}`]);

    // A rule added elsewhere is evaluated once the version is read again; one deleted elsewhere is not.
    const added = await elsewhere.create(serverId, settings('Heartbeat'), clock.now);
    await elsewhere.remove(serverId, rule.id);
    clock.now += 1_000;
    wall.ms += REFRESH_MS;
    await a.onBatches([batch([...logsOf('Heartbeat', 2), ...logsOf('Chat', 5)])]);
    expect(queued).toEqual([`alert_${rule.id}_1_firing_${webhook.id}`, `alert_${added.id}_1_firing_${webhook.id}`]);
    await store.remove(serverId, added.id);
  });

  it("follows this replica's own writes at once, without reading the version", async () => {
    queued.length = 0;
    const a = evaluator();
    await a.onBatches([batch(logsOf('Chat', 1))]);
    // Within the refresh period: only the store object's own notice can make the evaluator see these.
    const rule = await store.create(serverId, settings('Kill'), clock.now);
    await a.onBatches([batch(logsOf('Kill', 2))]);
    expect(queued).toEqual([`alert_${rule.id}_1_firing_${webhook.id}`]);
    await store.update(serverId, rule.id, settings('Revive'), clock.now);
    await a.onBatches([batch(logsOf('Revive', 2))]);
    expect(queued).toEqual([`alert_${rule.id}_1_firing_${webhook.id}`, `alert_${rule.id}_2_firing_${webhook.id}`]);
    await store.remove(serverId, rule.id);
  });

  it("fires with the last five matching logs of the read, across its batches, and counts a read that cannot reach the threshold", async () => {
    queued.length = 0;
    const a = evaluator();
    const rule = await store.create(serverId, { ...settings('Explosion'), threshold: 9 }, clock.now);
    // One read far below the threshold (its logs could not take the rule there): counted, nothing sent.
    clock.now += 1_000;
    await a.onBatches([batch(logsOf('Explosion', 2)), batch(logsOf('Chat', 3))]);
    expect(queued).toHaveLength(0);
    // The next read crosses it in its last batch, which holds fewer than five matching logs.
    clock.now += 1_000;
    const reads = [logsOf('Explosion', 3), [...logsOf('Explosion', 2), ...logsOf('Chat', 4)], [...logsOf('Chat', 2), ...logsOf('Explosion', 2)]];
    await a.onBatches(reads.map(batch));
    expect(queued).toEqual([`alert_${rule.id}_1_firing_${webhook.id}`]);
    const [firing] = await store.history(rule.id, 1);
    const explosions = reads.flat().filter((log) => log.type === 'Explosion');
    expect(firing?.count).toBe(9);
    expect(firing?.sample.map((log) => log.id)).toEqual(explosions.slice(-5).map((log) => log.id));
    await store.remove(serverId, rule.id);
  });

  it('resolves an absence rule at the tick when the log that ended the silence reached a replica that had it as ok', async () => {
    queued.length = 0;
    const a = evaluator();
    const b = evaluator();
    const rule = await store.create(serverId, { ...settings('Heartbeat'), kind: 'absence', threshold: null }, clock.now);
    // Replica A has the rule in memory, as ok.
    await a.onBatches([batch(logsOf('Chat', 1))]);
    // Replica B's tick fires it after the silent window (B's writes are not A's store object's here: a second evaluator over `elsewhere`).
    clock.now += 61_000;
    const other = evaluator(elsewhere);
    await other.tick();
    expect(queued).toEqual([`alert_${rule.id}_1_firing_${webhook.id}`]);
    // Within the refresh period the heartbeat reaches A, which still has the rule as ok: it only moves the clock.
    clock.now += 2_000;
    await a.onBatches([batch(logsOf('Heartbeat', 1))]);
    expect(queued).toHaveLength(1);
    // The next tick, on any replica, sees a match after the firing and resolves it, once.
    clock.now += 1_000;
    await b.tick();
    await other.tick();
    expect(queued).toEqual([`alert_${rule.id}_1_firing_${webhook.id}`, `alert_${rule.id}_1_resolved_${webhook.id}`]);
    const events = await store.history(rule.id, 10);
    expect(events.map((e) => [e.state, e.count])).toEqual([
      ['resolved', 63],
      ['firing', 61],
    ]);
  });
});
