import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { eventBusContract } from '@skald/ports/contract/event-bus.contract.ts';
import type { BusMessage, EventBus } from '@skald/ports';
import { createEventBus } from '../src/event-bus/index.ts';
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

eventBusContract('redis streams', async () => {
  const prefix = `test:bus:${randomUUID().slice(0, 8)}:`;
  const opened: EventBus[] = [await openBus(prefix)];
  return {
    adapter: opened[0]!,
    reopen: async () => {
      const bus = await openBus(prefix);
      opened.push(bus);
      return bus;
    },
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
