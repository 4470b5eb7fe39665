import { describe, expect, it } from 'vitest';
import { getHeapStatistics } from 'node:v8';
import { IdleMemoryTrim, memoryReducingCollector } from '../src/index.ts';
import type { IdleMemoryTrimOptions } from '../src/index.ts';

const MIB = 1024 * 1024;
const OPTIONS: IdleMemoryTrimOptions = { checkEveryMs: 500, idleCpuShare: 0.05, idleChecks: 2, minSlackBytes: 16 * MIB, minIntervalMs: 60_000 };
/** CPU per check below which a check is idle: 5% of 500 ms = 25 ms. */
const IDLE_CPU_US = 1_000;
const BUSY_CPU_US = 400_000;

/** A process whose CPU use, heap and clock the test moves by hand; counts the collections. */
function fakeProcess() {
  const state = { cpu: 0, now: 0, total: 100 * MIB, used: 40 * MIB, collections: 0 };
  const trim = new IdleMemoryTrim(
    {
      cpuMicros: () => state.cpu,
      heap: () => ({ total: state.total, used: state.used }),
      now: () => state.now,
      collect: () => {
        state.collections++;
        state.total = state.used + 2 * MIB;
        state.cpu += BUSY_CPU_US; // the collection's own CPU must not count as load
      },
    },
    OPTIONS,
  );
  const tick = (cpuUs: number): boolean => {
    state.cpu += cpuUs;
    state.now += OPTIONS.checkEveryMs;
    return trim.check();
  };
  return { state, tick };
}

describe('IdleMemoryTrim', () => {
  it('collects once the process has been idle for the configured checks in a row, not before', () => {
    const { state, tick } = fakeProcess();
    expect(tick(BUSY_CPU_US)).toBe(false);
    expect(tick(IDLE_CPU_US)).toBe(false);
    expect(tick(IDLE_CPU_US)).toBe(true);
    expect(state.collections).toBe(1);
  });

  it('never collects while the process is busy', () => {
    const { state, tick } = fakeProcess();
    for (let i = 0; i < 20; i++) tick(i % 2 === 0 ? BUSY_CPU_US : IDLE_CPU_US);
    expect(state.collections).toBe(0);
  });

  it('leaves a heap with little unused room alone', () => {
    const { state, tick } = fakeProcess();
    state.total = state.used + 8 * MIB;
    for (let i = 0; i < 10; i++) tick(IDLE_CPU_US);
    expect(state.collections).toBe(0);
  });

  it('collects at most once per interval, and again after it once the heap has grown', () => {
    const { state, tick } = fakeProcess();
    tick(IDLE_CPU_US);
    tick(IDLE_CPU_US);
    expect(state.collections).toBe(1);
    // A burst of load grows the heap again right after the collection.
    tick(BUSY_CPU_US);
    state.total = 100 * MIB;
    for (let i = 0; i < 10; i++) tick(IDLE_CPU_US);
    expect(state.collections).toBe(1);
    while (state.now < OPTIONS.minIntervalMs + 1_000) tick(IDLE_CPU_US);
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
