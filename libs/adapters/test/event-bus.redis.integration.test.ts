import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { eventBusContract } from '@skald/ports/contract/event-bus.contract.ts';
import { PoisonMessageError } from '@skald/ports';
import type { BusMessage, EventBus } from '@skald/ports';
import { createEventBus } from '../src/event-bus/index.ts';
import { RedisEventBus } from '../src/event-bus/redis/redis-event-bus.ts';
import { deleteByPrefix, REDIS_URL } from './redis-test-keys.ts';


async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function openBus(prefix: string, visibilityTimeoutMs = 500, trimIntervalMs = 10_000): Promise<EventBus> {
  return createEventBus({ kind: 'redis', url: REDIS_URL, prefix, visibilityTimeoutMs, blockMs: 200, trimIntervalMs });
}

interface Limits {
  readonly historyTopics: readonly string[];
  readonly maxLen?: number;
  readonly trimIntervalMs?: number;
}

function connect(prefix: string, limits: Limits): Promise<RedisEventBus> {
  return RedisEventBus.connect({ kind: 'redis', url: REDIS_URL, prefix, visibilityTimeoutMs: 500, blockMs: 200, ...limits });
}

eventBusContract('redis streams', async ({ historyTopics, tightLimits }) => {
  const prefix = `test:bus:${randomUUID().slice(0, 8)}:`;
  // Tight: a one-entry MAXLEN cap (Redis applies it per whole stream node, so it bites after a few
  // dozen entries) and the acknowledged-entry trim every 50 ms in each subscription.
  const limits: Limits = { historyTopics, ...(tightLimits ? { maxLen: 1, trimIntervalMs: 50 } : { trimIntervalMs: 10_000 }) };
  const first = await connect(prefix, limits);
  const opened: EventBus[] = [first];
  return {
    adapter: first,
    reopen: async () => {
      const bus = await connect(prefix, limits);
      opened.push(bus);
      return bus;
    },
    trim: () => first.trim(),
    cleanup: async () => {
      for (const bus of opened) await bus.close();
      await deleteByPrefix(prefix);
    },
  };
});

describe('redis streams event bus', () => {
  it('hands a message left pending by a dead consumer to another one, with its delivery count as attempt', async () => {
    const prefix = `test:bus:${randomUUID().slice(0, 8)}:`;
    const bus = await openBus(prefix, 300);
    await bus.ensureTopics(['t']);
    await bus.publish([{ topic: 't', key: 'k', payload: 'orphan', id: 'orphan' }]);
    // Simulate a consumer that read the message and died before XACK.
    const raw = new Redis(REDIS_URL);
    await raw.call('XGROUP', ['CREATE', `${prefix}t`, 'g', '0']);
    await raw.call('XREADGROUP', ['GROUP', 'g', 'dead-consumer', 'COUNT', 1, 'STREAMS', `${prefix}t`, '>']);

    const received: BusMessage[] = [];
    const subscription = await bus.subscribe({ group: 'g', topics: ['t'], handler: async (m) => void received.push(m) });
    await waitFor(() => received.length === 1);
    expect(received[0]!.id).toBe('orphan');
    expect(received[0]!.attempt).toBe(2);
    await waitFor(() => false, 200).catch(() => undefined);
    const pending = (await raw.call('XPENDING', [`${prefix}t`, 'g'])) as unknown[];
    expect(pending[0]).toBe(0);
    await subscription.stop();
    await bus.close();
    await raw.quit();
    await deleteByPrefix(prefix);
  });

  it('leaves nothing in Redis for an observer (no group, no consumer) and does not hold back the trim', async () => {
    const prefix = `test:bus:${randomUUID().slice(0, 8)}:`;
    const bus = await connect(prefix, { historyTopics: [], trimIntervalMs: 50 });
    await bus.ensureTopics(['t']);
    const observed: string[] = [];
    const observer = await bus.observe({ topics: ['t'], handler: async (m) => void observed.push(m.id) });
    const consumed: string[] = [];
    const subscription = await bus.subscribe({ group: 'g', topics: ['t'], handler: async (m) => void consumed.push(m.id) });
    await bus.publish(Array.from({ length: 20 }, (_, i) => ({ topic: 't', key: 'k', payload: i, id: `m-${i}` })));
    await waitFor(() => observed.length === 20 && consumed.length === 20);
    const raw = new Redis(REDIS_URL);
    const groups = (await raw.call('XINFO', ['GROUPS', `${prefix}t`])) as unknown[];
    expect(groups).toHaveLength(1);
    // Everything the one group acknowledged goes, whatever the observer did (MINID keeps the bound entry itself).
    await bus.trim();
    expect(await raw.xlen(`${prefix}t`)).toBe(1);
    await subscription.stop();
    await observer.stop();
    await raw.call('XGROUP', ['DESTROY', `${prefix}t`, 'g']);
    expect(await raw.call('XINFO', ['GROUPS', `${prefix}t`])).toEqual([]);
    await bus.close();
    await raw.quit();
    await deleteByPrefix(prefix);
  });

  it('never trims a history stream, while capping and trimming a normal one under the same limits', async () => {
    const prefix = `test:bus:${randomUUID().slice(0, 8)}:`;
    const bus = await connect(prefix, { historyTopics: ['facts'], maxLen: 1, trimIntervalMs: 50 });
    await bus.ensureTopics(['facts', 'stream']);
    const seen: string[] = [];
    const subscription = await bus.subscribe({ group: 'g', topics: ['facts', 'stream'], handler: async (m) => void seen.push(m.id) });
    const batch = (topic: string) => Array.from({ length: 200 }, (_, i) => ({ topic, key: 'k', payload: { i }, id: `${topic}-${i}` }));
    for (const topic of ['facts', 'stream']) await bus.publish(batch(topic));
    // The cap cuts 'stream' entries even before they are read; 'facts' arrive whole.
    await waitFor(() => seen.filter((id) => id.startsWith('facts-')).length === 200);
    await waitFor(() => false, 300).catch(() => undefined);
    await bus.trim();
    const raw = new Redis(REDIS_URL);
    expect(await raw.xlen(`${prefix}facts`)).toBe(200);
    expect(await raw.xlen(`${prefix}stream`)).toBeLessThan(200);
    await subscription.stop();

    const late: string[] = [];
    const replay = await bus.subscribe({ group: 'late', topics: ['facts'], handler: async (m) => void late.push(m.id) });
    await waitFor(() => late.length === 200);
    expect(late).toEqual(batch('facts').map((m) => m.id));
    await replay.stop();

    // The dead-letter stream of a history topic is capped like any other.
    let rejected = 0;
    const rejecting = await bus.subscribe({
      group: 'rejecting', topics: ['facts'],
      handler: async () => {
        rejected++;
        throw new PoisonMessageError('not for this group');
      },
    });
    await waitFor(() => rejected === 200);
    await rejecting.stop();
    expect(await raw.xlen(`${prefix}facts.dlq`)).toBeLessThan(200);
    expect(await raw.xlen(`${prefix}facts`)).toBe(200);
    await bus.close();
    await raw.quit();
    await deleteByPrefix(prefix);
  });

  it('trims entries every group has acknowledged', async () => {
    const prefix = `test:bus:${randomUUID().slice(0, 8)}:`;
    const bus = await openBus(prefix, 500, 300);
    await bus.ensureTopics(['t']);
    let count = 0;
    const subscription = await bus.subscribe({ group: 'g', topics: ['t'], handler: async () => void count++ });
    await bus.publish(Array.from({ length: 20 }, (_, i) => ({ topic: 't', key: 'k', payload: i })));
    await waitFor(() => count === 20);
    const raw = new Redis(REDIS_URL);
    // A second group that has read nothing yet holds every entry back.
    await raw.call('XGROUP', ['CREATE', `${prefix}t`, 'lagging', '0']);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await raw.xlen(`${prefix}t`)).toBe(20);
    await raw.call('XGROUP', ['DESTROY', `${prefix}t`, 'lagging']);
    await waitFor(() => false, 700).catch(() => undefined);
    // Trimming keeps at most the last acknowledged entry (XTRIM MINID keeps the id itself).
    expect(await raw.xlen(`${prefix}t`)).toBeLessThanOrEqual(1);
    await subscription.stop();
    await bus.close();
    await raw.quit();
    await deleteByPrefix(prefix);
  });
});
