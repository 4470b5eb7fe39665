/**
 * The tail session alone (domain/tail/log-tail.ts) over the real SQLite log store: the hand-over between
 * the store read of a resume and the live feed (a log stored while the read runs is sent exactly once,
 * a log stored after it is not lost), the `id:` line that only advances, the slow-client bound and the
 * in-memory filter agreeing with the store's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogTailEnd } from '@skald/contracts';
import type { LogQuery, LogRecord, LogStore } from '@skald/ports';
import { createTestDeps, waitFor } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import { createLiveLogFeed } from '../src/domain/tail/live-feed.ts';
import type { LiveLogFeed } from '../src/domain/tail/live-feed.ts';
import { DEFAULT_TAIL_SETTINGS, LogTail, TAIL_TOO_SLOW } from '../src/domain/tail/log-tail.ts';
import type { TailOutput } from '../src/domain/tail/log-tail.ts';
import { tailMatcher } from '../src/domain/tail/tail-filter.ts';

const S = 'srv-1';
const T = Date.parse('2026-01-05T10:00:00.000Z');
let deps: TestDeps;
let feed: LiveLogFeed;

let seq = 0;
function rec(createdAt: number, overrides: Partial<LogRecord> = {}): LogRecord {
  seq += 1;
  const hex = createdAt.toString(16).padStart(12, '0');
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${seq.toString(16).padStart(3, '0')}-8000-000000000000`;
  return { id, serverId: S, createdAt, level: 'info', type: 'General', resource: 'core', message: `m${seq}`, metadata: null, logType: 'text', imageKey: null, thumbKey: null, expiresAt: createdAt + 86_400_000, ...overrides };
}

/** Collects what a tail writes; `pendingBytes` plays a client that stopped reading. */
function output(): TailOutput & { text: string; ended: boolean; pendingBytes: number } {
  return {
    text: '',
    ended: false,
    pendingBytes: 0,
    write(text) {
      this.text += text;
    },
    pending() {
      return this.pendingBytes;
    },
    end() {
      this.ended = true;
    },
  };
}

function frames(text: string): { event: string; id?: string; data: unknown }[] {
  return text
    .split('\n\n')
    .filter((block) => block.includes('event: '))
    .map((block) => {
      const field = (name: string) => block.split('\n').find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
      const id = field('id');
      return { event: field('event')!, ...(id === undefined ? {} : { id }), data: JSON.parse(field('data')!) as unknown };
    });
}

function newTail(store: LogStore, afterId: string | null, out: TailOutput, checkAccess: () => Promise<LogTailEnd | null> = async () => null): LogTail {
  return new LogTail(
    { feed: { subscribe: async (serverId, listener) => feed.subscribe(serverId, listener) }, logStore: store, toApi: (r) => ({ id: r.id, message: r.message }) as never, checkAccess, log: deps.log },
    { ...DEFAULT_TAIL_SETTINGS, heartbeatMs: 20 },
    { serverId: S, filters: { serverId: S, logType: 'text' }, afterId },
    out,
    () => undefined,
  );
}

beforeEach(async () => {
  deps = await createTestDeps({ service: 'logs' });
  feed = createLiveLogFeed((error) => {
    throw error;
  });
});

afterEach(async () => {
  await deps.cleanup();
});

describe('LogTail hand-over from the store to the live feed', () => {
  it('sends a log stored during the resume read once, and one stored after the read too', async () => {
    const seen = rec(T);
    const missed = rec(T + 1);
    await deps.logStore.insertBatch([seen, missed]);
    const duringRead = rec(T + 2);
    const afterRead = rec(T + 3);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The real store, with its answer held back so logs can be stored while the read is in flight.
    const slowStore: LogStore = Object.assign(Object.create(deps.logStore) as LogStore, {
      query: async (query: LogQuery) => {
        await deps.logStore.insertBatch([duringRead]);
        const page = await deps.logStore.query(query);
        feed.publish(S, [duringRead]);
        await gate;
        return page;
      },
    });
    const out = output();
    const tail = newTail(slowStore, seen.id, out);
    const started = tail.start();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await deps.logStore.insertBatch([afterRead]);
    feed.publish(S, [afterRead]);
    release();
    await started;
    tail.close();
    const sent = frames(out.text);
    expect(sent.map((f) => f.event)).toEqual(['log', 'log', 'log', 'ready']);
    expect(sent.filter((f) => f.event === 'log').map((f) => f.id)).toEqual([missed.id, duringRead.id, afterRead.id]);
  });

  it('replays on resume the logs received after the id whose own time is up to 5 minutes before it, oldest first', async () => {
    const last = rec(T);
    // Received after `last` (later ids), stamped by their clients before it: a batch, a clock a few minutes slow.
    const stampedBefore = { ...rec(T + 1000), createdAt: T - 4 * 60_000, receivedAt: T + 1000 };
    const stampedAfter = { ...rec(T + 2000), createdAt: T + 500, receivedAt: T + 2000 };
    // Received before `last`: already sent, whatever its own time.
    const alreadySent = { ...rec(T - 1000), createdAt: T - 60_000 };
    // Sent after an outage, a day late: not replayed (the list has it; open tails got it live).
    const dayLate = { ...rec(T + 3000), createdAt: T - 20 * 3_600_000, receivedAt: T + 3000 };
    await deps.logStore.insertBatch([last, stampedBefore, stampedAfter, alreadySent, dayLate]);
    const out = output();
    const tail = newTail(deps.logStore, last.id, out);
    await tail.start();
    tail.close();
    const sent = frames(out.text);
    expect(sent.filter((f) => f.event === 'log').map((f) => (f.data as { id: string }).id)).toEqual([stampedBefore.id, stampedAfter.id]);
    expect(sent.at(-1)).toEqual({ event: 'ready', data: { replayed: 2 } });
  });

  it('sends a log whose id sorts before one already sent without an id line, so a resume never repeats', async () => {
    const out = output();
    const tail = newTail(deps.logStore, null, out);
    await tail.start();
    const later = rec(T + 10);
    const earlier = rec(T + 5);
    feed.publish(S, [later]);
    feed.publish(S, [earlier]);
    feed.publish(S, [later]);
    tail.close();
    const logs = frames(out.text).filter((f) => f.event === 'log');
    expect(logs).toEqual([
      { event: 'log', id: later.id, data: { id: later.id, message: later.message } },
      { event: 'log', data: { id: earlier.id, message: earlier.message } },
    ]);
  });

  it('closes a client that stopped reading with an end event instead of buffering without bound', async () => {
    const out = output();
    const tail = newTail(deps.logStore, null, out);
    await tail.start();
    out.pendingBytes = DEFAULT_TAIL_SETTINGS.maxPendingBytes + 1;
    feed.publish(S, [rec(T)]);
    expect(out.ended).toBe(true);
    expect(frames(out.text).at(-1)).toEqual({ event: 'end', data: TAIL_TOO_SLOW });
    expect(tail.closed).toBe(true);
  });

  it('ends with the access check’s reason at a heartbeat', async () => {
    const out = output();
    const reason: LogTailEnd = { error: 'gone', message: 'gone', reconnect: false };
    const tail = newTail(deps.logStore, null, out, async () => reason);
    await tail.start();
    // The end comes at the first heartbeat (20 ms): waited for, not slept for.
    await waitFor(() => tail.closed, 'the tail to end at a heartbeat');
    expect(tail.closed).toBe(true);
    expect(out.text).toContain(': ping\n\n');
    expect(frames(out.text).at(-1)).toEqual({ event: 'end', data: reason });
  });
});

describe('tailMatcher agrees with the log store', () => {
  it('matches exactly the logs the store query answers for the same filters', async () => {
    const records = [
      rec(T, { level: 'ERROR', type: 'Death', resource: 'arena', message: 'Bob died 100% dead' }),
      rec(T + 1, { level: 'error', type: 'death', resource: 'Arena', message: 'Cid fell', metadata: { weapon: 'Sword_of_Doom' } }),
      rec(T + 2, { level: 'warn', type: 'Chat', resource: 'lobby', message: 'hello world' }),
      rec(T + 3, { level: 'info', type: 'Chat', resource: 'lobby', message: 'photo', logType: 'photo', imageKey: 'i', thumbKey: 't' }),
    ];
    await deps.logStore.insertBatch(records);
    const cases: Omit<LogQuery, 'serverId' | 'offset' | 'limit'>[] = [
      {},
      { level: 'Error' },
      { type: 'CHAT', logType: 'text' },
      { resource: 'ARENA', search: 'sword_of' },
      { search: '100%' },
      { search: '"weapon"' },
      { search: 'LOBBY' },
      { from: T + 1, to: T + 2 },
      { logType: 'photo' },
    ];
    for (const filters of cases) {
      const page = await deps.logStore.query({ serverId: S, ...filters, offset: 0, limit: 50 });
      const matches = tailMatcher({ serverId: S, ...filters });
      expect(records.filter(matches).map((r) => r.id).reverse(), JSON.stringify(filters)).toEqual(page.items.map((r) => r.id));
    }
  });
});
