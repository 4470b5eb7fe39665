/**
 * The order in which held batches reach the tails (domain/tail/held-batches.ts), on a fake clock: a batch
 * stored before an earlier one of its server waits for it; one that waited holdMs goes anyway and the
 * batch it overtook no longer holds anything back; servers do not wait for each other; unstored batches
 * are forgotten after their TTL or beyond the cap.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LogRecord } from '@skald/ports';
import { HeldBatches } from '../src/domain/tail/held-batches.ts';

const HOLD = 500;
let clock = 0;
let sent: string[];
let held: HeldBatches;

function records(...messages: string[]): LogRecord[] {
  return messages.map((message) => ({ id: message, serverId: 's', createdAt: 0, level: 'info', type: 't', resource: 'r', message, metadata: null, logType: 'text', imageKey: null, thumbKey: null, expiresAt: 0 }));
}

function advance(ms: number): void {
  clock += ms;
  vi.advanceTimersByTime(ms);
}

beforeEach(() => {
  vi.useFakeTimers();
  clock = 0;
  sent = [];
  held = new HeldBatches({ holdMs: HOLD, pendingTtlMs: 60_000, maxHeldLogs: 4 }, () => clock, (serverId, batch) => {
    sent.push(...batch.map((record) => `${serverId}:${record.message}`));
  });
});

afterEach(() => {
  held.clear();
  vi.useRealTimers();
});

describe('held batches', () => {
  it('sends a batch stored before an earlier one after it, in acceptance order', () => {
    held.accepted('s', 'b1', records('a1', 'a2'), false);
    held.accepted('s', 'b2', records('b1'), false);
    expect(held.stored('b2')).toBe(true);
    expect(sent).toEqual([]);
    advance(100);
    held.stored('b1');
    expect(sent).toEqual(['s:a1', 's:a2', 's:b1']);
    expect(held.size()).toBe(0);
  });

  it('sends a stored batch after holdMs when an earlier one is not stored, and the overtaken one holds nothing back', () => {
    held.accepted('s', 'slow', records('slow'), false);
    held.accepted('s', 'b2', records('two'), false);
    held.stored('b2');
    advance(HOLD - 1);
    expect(sent).toEqual([]);
    advance(1);
    expect(sent).toEqual(['s:two']);
    // Later batches do not wait for the overtaken one again.
    held.accepted('s', 'b3', records('three'), false);
    held.stored('b3');
    expect(sent).toEqual(['s:two', 's:three']);
    // It still goes out once stored.
    held.stored('slow');
    expect(sent).toEqual(['s:two', 's:three', 's:slow']);
  });

  it('keeps servers apart, releases a batch whose notice came first, and ignores unknown notices', () => {
    held.accepted('s', 'pending', records('p'), false);
    held.accepted('other', 'o1', records('o'), true);
    expect(sent).toEqual(['other:o']);
    expect(held.stored('never-seen')).toBe(false);
    expect(held.size()).toBe(1);
  });

  it('forgets unstored batches after their TTL and beyond the cap, oldest first', () => {
    held.accepted('s', 'old', records('old'), false);
    advance(60_001);
    held.accepted('s', 'new', records('new'), true);
    // The expired batch neither blocks nor comes back.
    expect(sent).toEqual(['s:new']);
    expect(held.stored('old')).toBe(false);
    for (const id of ['c1', 'c2', 'c3']) held.accepted('x', id, records(id), false);
    // Two logs in one batch: five held is over the cap of four, so the oldest batch goes.
    held.accepted('x', 'c4', records('c4a', 'c4b'), false);
    expect(held.logs()).toBe(4);
    expect(held.size()).toBe(3);
    expect(held.stored('c1')).toBe(false);
    held.stored('c2');
    expect(sent).toEqual(['s:new', 'x:c2']);
    expect(held.logs()).toBe(3);
  });
});
