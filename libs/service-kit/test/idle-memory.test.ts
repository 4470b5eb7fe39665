import { describe, expect, it } from 'vitest';
import { getHeapStatistics } from 'node:v8';
import { IdleMemoryTrim, memoryReducingCollector } from '../src/index.ts';
import type { IdleMemoryTrimOptions } from '../src/index.ts';

const MIB = 1024 * 1024;
const OPTIONS: IdleMemoryTrimOptions = { checkEveryMs: 500, idleBusyShare: 0.05, idleChecks: 2, minSlackBytes: 16 * MIB, minIntervalMs: 60_000, minBusyMs: 100 };
/** Busy time per check below which a check is idle: 5% of 500 ms = 25 ms. */
const IDLE_US = 500;
const BUSY_US = 400_000;

/** A process whose event-loop busy time, heap and clock the test moves by hand; counts the collections. */
function fakeProcess() {
  const state = { busy: 0, now: 0, total: 100 * MIB, used: 40 * MIB, collections: 0 };
  const trim = new IdleMemoryTrim(
    {
      busyMicros: () => state.busy,
      heap: () => ({ total: state.total, used: state.used }),
      now: () => state.now,
      collect: () => {
        state.collections++;
        state.total = state.used + 2 * MIB;
        state.busy += BUSY_US; // the collection's own time must not count as load
      },
    },
    OPTIONS,
  );
  const tick = (busyUs: number): boolean => {
    state.busy += busyUs;
    state.now += OPTIONS.checkEveryMs;
    return trim.check();
  };
  return { state, tick };
}

describe('IdleMemoryTrim', () => {
  it('collects once the process has worked and then been idle for the configured checks in a row, not before', () => {
    const { state, tick } = fakeProcess();
    expect(tick(BUSY_US)).toBe(false);
    expect(tick(BUSY_US)).toBe(false);
    expect(tick(IDLE_US)).toBe(false);
    expect(tick(IDLE_US)).toBe(true);
    expect(state.collections).toBe(1);
  });

  it('does not collect in the quiet after start-up, before any work', () => {
    const { state, tick } = fakeProcess();
    for (let i = 0; i < 20; i++) tick(IDLE_US);
    expect(state.collections).toBe(0);
  });

  it('never collects while the process is busy', () => {
    const { state, tick } = fakeProcess();
    for (let i = 0; i < 20; i++) tick(i % 2 === 0 ? BUSY_US : IDLE_US);
    expect(state.collections).toBe(0);
  });

  it('leaves a heap with little unused room alone', () => {
    const { state, tick } = fakeProcess();
    state.total = state.used + 8 * MIB;
    tick(BUSY_US);
    tick(BUSY_US);
    for (let i = 0; i < 10; i++) tick(IDLE_US);
    expect(state.collections).toBe(0);
  });

  it('collects at most once per interval, however much work comes between', () => {
    const { state, tick } = fakeProcess();
    tick(BUSY_US);
    tick(BUSY_US);
    tick(IDLE_US);
    tick(IDLE_US);
    expect(state.collections).toBe(1);
    const firstAt = state.now;
    // Bursts of load that grow the heap again, each followed by idle time.
    for (let burst = 0; burst < 5; burst++) {
      for (let i = 0; i < 4; i++) tick(BUSY_US);
      state.total = 100 * MIB;
      for (let i = 0; i < 4; i++) tick(IDLE_US);
    }
    expect(state.collections).toBe(1);
    while (state.now < firstAt + OPTIONS.minIntervalMs + 1_000) tick(IDLE_US);
    // The interval has passed, and there was work since: one more.
    expect(state.collections).toBe(2);
    // Another interval with no work at all: none.
    const later = state.now + OPTIONS.minIntervalMs + 1_000;
    state.total = 100 * MIB;
    while (state.now < later) tick(IDLE_US);
    expect(state.collections).toBe(2);
  });
});

describe('memoryReducingCollector', () => {
  it('runs a full collection without giving the global scope a gc function', () => {
    const collect = memoryReducingCollector();
    expect(collect).not.toBeNull();
    const before = getHeapStatistics().total_heap_size;
    // Garbage the collection has to reclaim.
    expect(Array.from({ length: 200_000 }, (_, i) => ({ i })).length).toBe(200_000);
    collect!();
    expect(getHeapStatistics().total_heap_size).toBeLessThanOrEqual(before);
    expect('gc' in globalThis).toBe(false);
  });
});
