import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { TOPICS } from '@skald/contracts';
import { PoisonMessageError } from '@skald/ports';
import type { BusMessage, EventBus } from '@skald/ports';
import { eventBusContract } from '@skald/ports/contract/event-bus.contract.ts';
import { MemoryEventBus, createEventBus } from '../src/event-bus/index.ts';
import type { MemoryEventBusConfig } from '../src/event-bus/index.ts';
import { freezeIfPlainJson } from '../src/event-bus/memory/published-payloads.ts';

const tempDirs: string[] = [];
function journalFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skald-bus-'));
  tempDirs.push(dir);
  return join(dir, 'bus', 'journal.db');
}
afterEach(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;

for (const shared of [false, true]) eventBusContract(shared ? 'memory (SQLite journal), payloads shared in-process' : 'memory (SQLite journal)', async ({ historyTopics, tightLimits }) => {
  const file = journalFile();
  // Tight: every retained row is past the retention age and beyond the per-topic cap of one.
  const config: MemoryEventBusConfig = {
    kind: 'memory',
    file,
    historyTopics,
    sharedPayloadTopics: shared ? 'all' : [],
    ...(tightLimits ? { retentionMs: 1, maxMessagesPerTopic: 1 } : {}),
  };
  const first = new MemoryEventBus(config);
  const opened: EventBus[] = [first];
  return {
    adapter: first,
    reopen: async () => {
      const bus = await createEventBus(config);
      opened.push(bus);
      return bus;
    },
    trim: async () => void first.prune(Date.now() + DAY_MS),
    cleanup: async () => {
      for (const bus of opened) await bus.close();
    },
  };
});

describe('memory event bus: durability and housekeeping', () => {
  it('delivers a message whose publisher was SIGKILLed right after publish() resolved', async () => {
    const file = journalFile();
    const script = fileURLToPath(new URL('./fixtures/publish-then-hang.ts', import.meta.url));
    const child = spawn(process.execPath, [script, file, 'killed.topic'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await waitFor(() => output.includes('published') || child.exitCode !== null, 15_000).catch(() => undefined);
    expect(output, errors).toContain('published acked-1');
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const bus = await createEventBus({ kind: 'memory', file });
    const received: BusMessage[] = [];
    await bus.subscribe({ group: 'after-crash', topics: ['killed.topic'], handler: async (m) => void received.push(m) });
    await waitFor(() => received.length === 1);
    expect(received[0]!.id).toBe('acked-1');
    expect(received[0]!.payload).toEqual({ survived: true });
    await bus.close();
  }, 90_000); // a publisher child process is started (seconds of wall time on a loaded machine) and SIGKILLed

  it('picks up messages another process appends to the same journal', async () => {
    const file = journalFile();
    const bus = new MemoryEventBus({ kind: 'memory', file, pollIntervalMs: 100 });
    await bus.ensureTopics(['shared.topic']);
    const received: BusMessage[] = [];
    await bus.subscribe({ group: 'reader', topics: ['shared.topic'], handler: async (m) => void received.push(m) });
    const script = fileURLToPath(new URL('./fixtures/publish-then-hang.ts', import.meta.url));
    const child = spawn(process.execPath, [script, file, 'shared.topic'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await waitFor(() => received.length === 1, 15_000);
      expect(received[0]!.id).toBe('acked-1');
    } finally {
      child.kill('SIGKILL');
      await bus.close();
    }
  }, 90_000); // another process starts (seconds of wall time on a loaded machine) and appends to the journal

  it('resumes each group from its committed offset after a restart', async () => {
    const file = journalFile();
    const first = new MemoryEventBus({ kind: 'memory', file });
    await first.ensureTopics(['t']);
    const seen: string[] = [];
    await first.subscribe({ group: 'g', topics: ['t'], handler: async (m) => void seen.push(m.id) });
    await first.publish([{ topic: 't', key: 'k', payload: 1, id: 'a' }, { topic: 't', key: 'k', payload: 2, id: 'b' }]);
    await waitFor(() => seen.length === 2);
    await first.close();

    const second = new MemoryEventBus({ kind: 'memory', file });
    await second.publish([{ topic: 't', key: 'k', payload: 3, id: 'c' }]);
    const seenAfter: string[] = [];
    await second.subscribe({ group: 'g', topics: ['t'], handler: async (m) => void seenAfter.push(m.id) });
    await waitFor(() => seenAfter.length === 1);
    // A fixed wait, kept on purpose: it proves no earlier message is delivered again, which sends no signal.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seenAfter).toEqual(['c']);
    await second.close();
  });

  it('wakes consumers on publish instead of polling', async () => {
    const bus = new MemoryEventBus({ kind: 'memory', file: journalFile(), pollIntervalMs: 60_000 });
    await bus.ensureTopics(['t']);
    let deliveredAt = 0;
    await bus.subscribe({ group: 'g', topics: ['t'], handler: async () => void (deliveredAt = Date.now()) });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const publishedAt = Date.now();
    await bus.publish([{ topic: 't', key: 'k', payload: 1 }]);
    await waitFor(() => deliveredAt > 0, 2000);
    expect(deliveredAt - publishedAt).toBeLessThan(200);
    await bus.close();
  });

  it('prunes rows every group has passed and caps what nobody consumes', async () => {
    const warnings: string[] = [];
    const bus = new MemoryEventBus({
      kind: 'memory', file: journalFile(), maxMessagesPerTopic: 10, onWarning: (w) => warnings.push(w),
    });
    await bus.ensureTopics(['consumed', 'unread']);
    let count = 0;
    const sub = await bus.subscribe({ group: 'g', topics: ['consumed'], handler: async () => void count++ });
    await bus.publish(Array.from({ length: 5 }, (_, i) => ({ topic: 'consumed', key: 'k', payload: i })));
    await bus.publish(Array.from({ length: 25 }, (_, i) => ({ topic: 'unread', key: 'k', payload: i })));
    await waitFor(() => count === 5);
    expect(bus.retainedCount('consumed')).toBe(5);
    bus.prune();
    expect(bus.retainedCount('consumed')).toBe(0);
    // No group on 'unread': rows are kept for a future group, but only up to the cap.
    expect(bus.retainedCount('unread')).toBe(10);
    expect(warnings).toEqual([]);
    await sub.stop();

    // A group that lags behind the cap loses the oldest rows, with a warning.
    await bus.publish(Array.from({ length: 15 }, (_, i) => ({ topic: 'consumed', key: 'k', payload: i })));
    bus.prune();
    expect(bus.retainedCount('consumed')).toBe(10);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('5 messages');
    await bus.close();
  });

  it('paces publishers to a lagging group instead of letting the cap drop what it has not read', async () => {
    const bus = new MemoryEventBus({ kind: 'memory', file: journalFile(), maxBacklog: 3, maxBacklogWaitMs: 300, historyTopics: [] });
    await bus.ensureTopics(['work']);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const seen: number[] = [];
    const sub = await bus.subscribe({
      group: 'slow',
      topics: ['work'],
      handler: async (message) => {
        await gate;
        seen.push(message.payload as number);
      },
    });
    // The handler holds the first message: three published, none committed.
    for (const n of [1, 2, 3]) await bus.publish([{ topic: 'work', key: 'k', payload: n }]);
    const started = Date.now();
    await expect(bus.publish([{ topic: 'work', key: 'k', payload: 4 }])).rejects.toThrow('is 3 messages behind (limit 3); publish refused');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    // A publish that waits goes through as soon as the group catches up.
    const waiting = bus.publish([{ topic: 'work', key: 'k', payload: 5 }]);
    release();
    await waiting;
    await waitFor(() => seen.length === 4);
    // Every accepted message was delivered once, in order; the refused one was never written.
    expect(seen).toEqual([1, 2, 3, 5]);
    expect(bus.retainedCount('work')).toBe(4);
    // A stopped group paces nobody.
    await sub.stop();
    for (const n of [6, 7, 8, 9, 10]) await bus.publish([{ topic: 'work', key: 'k', payload: n }]);
    await bus.close();
  });

  it('never prunes a history topic, while pruning a normal topic under the same limits', async () => {
    const warnings: string[] = [];
    const bus = new MemoryEventBus({
      kind: 'memory', file: journalFile(), historyTopics: ['facts'], retentionMs: 1000, maxMessagesPerTopic: 3,
      onWarning: (w) => warnings.push(w),
    });
    await bus.ensureTopics(['facts', 'stream']);
    const seen: string[] = [];
    const sub = await bus.subscribe({ group: 'g', topics: ['facts', 'stream'], handler: async (m) => void seen.push(m.id) });
    const batch = (topic: string, from = 0) =>
      Array.from({ length: 10 }, (_, i) => ({ topic, key: 'k', payload: from + i, id: `${topic}-${from + i}` }));
    await bus.publish([...batch('facts'), ...batch('stream')]);
    await waitFor(() => seen.length === 20);
    // All three rules at once: every group passed, past the retention age, beyond the cap.
    bus.prune(Date.now() + 60_000);
    expect(bus.retainedCount('facts')).toBe(10);
    expect(bus.retainedCount('stream')).toBe(0);
    // Unconsumed history rows are not dropped either (the cap would have warned about them).
    await sub.stop();
    await bus.publish(batch('facts', 10));
    bus.prune(Date.now() + 60_000);
    expect(bus.retainedCount('facts')).toBe(20);
    expect(warnings).toEqual([]);

    const late: string[] = [];
    await bus.subscribe({ group: 'late', topics: ['facts'], handler: async (m) => void late.push(m.id) });
    await waitFor(() => late.length === 20);
    expect(late).toEqual([...batch('facts'), ...batch('facts', 10)].map((m) => m.id));
    await bus.close();
  });

  it('starts a new group at the oldest retained row of a normal topic', async () => {
    const bus = new MemoryEventBus({ kind: 'memory', file: journalFile(), maxMessagesPerTopic: 3 });
    await bus.ensureTopics(['t']);
    await bus.publish(Array.from({ length: 5 }, (_, i) => ({ topic: 't', key: 'k', payload: i, id: `m-${i}` })));
    bus.prune();
    const seen: string[] = [];
    await bus.subscribe({ group: 'new', topics: ['t'], handler: async (m) => void seen.push(m.id) });
    await waitFor(() => seen.length === 3);
    expect(seen).toEqual(['m-2', 'm-3', 'm-4']);
    await bus.close();
  });

  it('prunes rows older than the retention age', async () => {
    const bus = new MemoryEventBus({ kind: 'memory', file: journalFile(), retentionMs: 1000 });
    await bus.ensureTopics(['t']);
    await bus.publish([{ topic: 't', key: 'k', payload: 1 }]);
    bus.prune(Date.now());
    expect(bus.retainedCount('t')).toBe(1);
    bus.prune(Date.now() + 5000);
    expect(bus.retainedCount('t')).toBe(0);
    await bus.close();
  });

  it('refuses a second active subscription of the same group on a topic', async () => {
    const bus = new MemoryEventBus({ kind: 'memory', file: journalFile() });
    await bus.ensureTopics(['t']);
    await bus.subscribe({ group: 'g', topics: ['t'], handler: async () => undefined });
    await expect(bus.subscribe({ group: 'g', topics: ['t'], handler: async () => undefined })).rejects.toThrow(
      /already has an active subscription/,
    );
    await bus.close();
  });

  it('publishes 200 messages of ~200 KB and delivers them all', async () => {
    // Throughput is a benchmark figure (scripts/bench: batch ingestion), not a timed unit test.
    const bus = new MemoryEventBus({ kind: 'memory', file: journalFile() });
    await bus.ensureTopics(['big']);
    const logs = Array.from({ length: 1000 }, (_, i) => ({ id: `log-${i}`, message: 'x'.repeat(150), level: 'info' }));
    const delivered = new Set<number>();
    await bus.subscribe({ group: 'g', topics: ['big'], handler: async (m) => void delivered.add((m.payload as { n: number }).n) });
    for (let n = 0; n < 200; n++) await bus.publish([{ topic: 'big', key: `s${n % 7}`, payload: { n, logs } }]);
    await waitFor(() => delivered.size === 200, 20_000);
    expect([...delivered].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, n) => n));
    await bus.close();
  }, 30_000); // 200 messages of ~200 KB through the journal on disk

  describe('one shared, frozen copy of a payload for this instance\'s groups (shared topics)', () => {
    const bigLogs = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: `log-${i}`, createdAt: 1_700_000_000_000 + i, metadata: { i, tags: ['a', null] }, imageKey: null }));

    async function twoGroups(bus: MemoryEventBus, topic: string): Promise<BusMessage[]> {
      const received: BusMessage[] = [];
      for (const group of ['store', 'hooks']) {
        await bus.subscribe({ group, topics: [topic], handler: async (m) => void received.push(m) });
      }
      return received;
    }

    it('hands both groups the same deep-frozen object, equal to the row parsed, and lets it go once both took it', async () => {
      const bus = new MemoryEventBus({ kind: 'memory', file: journalFile(), sharedPayloadTopics: ['big'] });
      await bus.ensureTopics(['big']);
      const received = await twoGroups(bus, 'big');
      const payload = { serverId: 's1', logs: bigLogs(200) };
      const expected: unknown = JSON.parse(JSON.stringify(payload));
      await bus.publish([{ topic: 'big', key: 's1', payload }]);
      await waitFor(() => received.length === 2);
      expect(received[0]!.payload).toBe(received[1]!.payload);
      expect(received[0]!.payload).toEqual(expected);
      expect(Object.isFrozen(payload.logs[7]!.metadata.tags)).toBe(true);
      expect(() => {
        (received[0]!.payload as { logs: unknown[] }).logs.push('late');
      }).toThrow(TypeError);
      expect(bus.sharedPayloads()).toBe(0);
      await bus.close();
    });

    it('parses the row for each group on a topic that is not shared, and leaves the publisher\'s object alone', async () => {
      const bus = new MemoryEventBus({ kind: 'memory', file: journalFile(), sharedPayloadTopics: ['big'] });
      await bus.ensureTopics(['other']);
      const received = await twoGroups(bus, 'other');
      const payload = { serverId: 's1', logs: bigLogs(3) };
      await bus.publish([{ topic: 'other', key: 's1', payload }]);
      await waitFor(() => received.length === 2);
      expect(received[0]!.payload).not.toBe(received[1]!.payload);
      expect(received[0]!.payload).toEqual(payload);
      expect(Object.isFrozen(payload)).toBe(false);
      expect(bus.sharedPayloads()).toBe(0);
      await bus.close();
    });

    it('shares the accepted-logs topic by default', async () => {
      const bus = new MemoryEventBus({ kind: 'memory', file: journalFile() });
      await bus.ensureTopics([TOPICS.logsIngested]);
      const received = await twoGroups(bus, TOPICS.logsIngested);
      await bus.publish([{ topic: TOPICS.logsIngested, key: 's1', payload: { serverId: 's1', logs: bigLogs(1) } }]);
      await waitFor(() => received.length === 2);
      expect(received[0]!.payload).toBe(received[1]!.payload);
      await bus.close();
    });

    it('parses a payload JSON would change (undefined, a Date) for each group, leaving the publisher\'s object alone', async () => {
      const bus = new MemoryEventBus({ kind: 'memory', file: journalFile(), sharedPayloadTopics: ['big'] });
      await bus.ensureTopics(['big']);
      const received = await twoGroups(bus, 'big');
      const payload = { at: new Date(0), gone: undefined, logs: bigLogs(200) };
      await bus.publish([{ topic: 'big', key: 's1', payload }]);
      await waitFor(() => received.length === 2);
      expect(received[0]!.payload).not.toBe(received[1]!.payload);
      expect(received[0]!.payload).toEqual({ at: '1970-01-01T00:00:00.000Z', logs: JSON.parse(JSON.stringify(payload.logs)) as unknown });
      expect(Object.keys(received[1]!.payload as object)).toEqual(['at', 'logs']);
      expect(Object.isFrozen(payload.logs)).toBe(false);
      await bus.close();
    });

    it('parses a large row from the journal after a restart and dead-letters a shared payload with its full text', async () => {
      const file = journalFile();
      const first = new MemoryEventBus({ kind: 'memory', file, sharedPayloadTopics: ['big'] });
      await first.ensureTopics(['big']);
      const payload = { logs: bigLogs(200) };
      // Published with no consumer of this instance on the topic: nothing is kept in memory.
      await first.publish([{ topic: 'big', key: 'k', payload, id: 'from-disk' }]);
      expect(first.sharedPayloads()).toBe(0);
      await first.close();

      const second = new MemoryEventBus({ kind: 'memory', file, sharedPayloadTopics: ['big'] });
      const received: BusMessage[] = [];
      await second.subscribe({ group: 'g', topics: ['big'], handler: async (m) => void received.push(m) });
      await second.subscribe({ group: 'dlq', topics: ['big.dlq'], handler: async (m) => void received.push(m) });
      await waitFor(() => received.length === 1);
      expect(received[0]!.payload).toEqual(payload);

      await second.subscribe({
        group: 'picky',
        topics: ['big'],
        handler: async (m) => {
          if (m.id === 'refused') throw new PoisonMessageError('refused on purpose');
        },
      });
      await second.publish([{ topic: 'big', key: 'k', payload: { refused: true, logs: bigLogs(200) }, id: 'refused' }]);
      await waitFor(() => received.some((m) => m.topic === 'big.dlq'));
      const letter = received.find((m) => m.topic === 'big.dlq')!;
      expect(letter.id).toBe('refused');
      expect(letter.payload).toEqual({ refused: true, logs: JSON.parse(JSON.stringify(bigLogs(200))) as unknown });
      await second.close();
    });

    it('freezes only plain JSON data, all of it or nothing', () => {
      const holed = (): unknown[] => {
        const list: unknown[] = [1];
        list[2] = 3; // index 1 is a hole: JSON writes null there
        return list;
      };
      const plain = { a: [1, 'x', null, { b: true }], c: Object.assign(Object.create(null) as object, { d: 2 }) };
      expect(freezeIfPlainJson(plain)).toBe(true);
      expect(Object.isFrozen(plain.a[3])).toBe(true);
      for (const odd of [{ n: Number.NaN }, { n: -0 }, { n: Infinity }, { u: undefined }, { f: () => 1 }, { d: new Date(0) }, { m: new Map() }, holed(), { big: 1n }]) {
        const wrapper = { inner: { keep: [1] }, odd };
        expect(freezeIfPlainJson(wrapper)).toBe(false);
        expect(Object.isFrozen(wrapper.inner)).toBe(false);
      }
    });
  });
});
