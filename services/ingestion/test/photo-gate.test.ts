/**
 * The photo gate: a bounded number of uploads in flight, decodes sharing a bounded
 * number of slots in arrival order, and a bounded wait. Deterministic: work is held by hand and time is
 * vitest's fake clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PhotoBusyError, PhotoGate } from '../src/domain/photo-gate.ts';

function gate(): PhotoGate {
  return new PhotoGate({ maxInFlight: 3, decodeSlots: 2, maxDecodeWaitMs: 1_000, retryAfterSeconds: 5 });
}

/** A decode that runs until the test lets it finish. */
function heldWork(): { readonly work: () => Promise<string>; readonly started: () => boolean; finish: (value: string) => void } {
  let started = false;
  let finish: (value: string) => void = () => undefined;
  const done = new Promise<string>((resolve) => {
    finish = resolve;
  });
  return {
    work: () => {
      started = true;
      return done;
    },
    started: () => started,
    finish: (value) => finish(value),
  };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('PhotoGate', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('admits maxInFlight uploads and refuses the next with a Retry-After, until one leaves', () => {
    const g = gate();
    const leaves = [g.enter(), g.enter(), g.enter()];
    let refused: unknown;
    try {
      g.enter();
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(PhotoBusyError);
    expect((refused as PhotoBusyError).retryAfterSeconds).toBe(5);
    leaves[0]!();
    leaves[0]!(); // leaving twice frees one place, not two
    expect(g.stats().inFlight).toBe(2);
    expect(() => g.enter()).not.toThrow();
    expect(() => g.enter()).toThrow(PhotoBusyError);
  });

  it('runs at most decodeSlots decodes at once; the next starts when one finishes, in arrival order', async () => {
    const g = gate();
    const [a, b, c, d] = [heldWork(), heldWork(), heldWork(), heldWork()];
    const results = [g.decode(a.work), g.decode(b.work), g.decode(c.work), g.decode(d.work)];
    await settle();
    expect([a.started(), b.started(), c.started(), d.started()]).toEqual([true, true, false, false]);
    expect(g.stats()).toMatchObject({ slotsInUse: 2, waiting: 2 });
    b.finish('b');
    await settle();
    expect([c.started(), d.started()]).toEqual([true, false]);
    a.finish('a');
    c.finish('c');
    await settle();
    expect(d.started()).toBe(true);
    d.finish('d');
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
    expect(g.stats()).toEqual({ inFlight: 0, slotsInUse: 0, waiting: 0 });
  });

  it('a decode taking two slots waits for both, and later one-slot decodes do not overtake it', async () => {
    const g = gate();
    const [light, heavy, later] = [heldWork(), heldWork(), heldWork()];
    const done = [g.decode(light.work), g.decode(heavy.work, 2), g.decode(later.work)];
    await settle();
    // One slot is free, but the heavy decode is first in line and needs two.
    expect([light.started(), heavy.started(), later.started()]).toEqual([true, false, false]);
    light.finish('light');
    await settle();
    expect([heavy.started(), later.started()]).toEqual([true, false]);
    expect(g.stats().slotsInUse).toBe(2);
    heavy.finish('heavy');
    await settle();
    expect(later.started()).toBe(true);
    later.finish('later');
    expect(await Promise.all(done)).toEqual(['light', 'heavy', 'later']);
  });

  it('a decode that waits longer than maxDecodeWaitMs is refused and never runs; the line moves on', async () => {
    const g = gate();
    const [a, b, waiting, next] = [heldWork(), heldWork(), heldWork(), heldWork()];
    void g.decode(a.work);
    void g.decode(b.work);
    const refused = g.decode(waiting.work).catch((error: unknown) => error);
    await settle();
    vi.advanceTimersByTime(1_000);
    expect(await refused).toBeInstanceOf(PhotoBusyError);
    expect(g.stats()).toMatchObject({ slotsInUse: 2, waiting: 0 });
    const after = g.decode(next.work);
    a.finish('a');
    await settle();
    expect(waiting.started()).toBe(false);
    expect(next.started()).toBe(true);
    next.finish('next');
    b.finish('b');
    expect(await after).toBe('next');
  });

  it('a heavy decode timing out at the head of the line lets the one-slot decodes behind it start', async () => {
    const g = gate();
    const [light, heavy, behind] = [heldWork(), heldWork(), heldWork()];
    void g.decode(light.work);
    const heavyRefused = g.decode(heavy.work, 2).catch((error: unknown) => error);
    const behindDone = g.decode(behind.work);
    await settle();
    expect(behind.started()).toBe(false);
    vi.advanceTimersByTime(1_000);
    expect(await heavyRefused).toBeInstanceOf(PhotoBusyError);
    await settle();
    expect(behind.started()).toBe(true);
    behind.finish('behind');
    light.finish('light');
    expect(await behindDone).toBe('behind');
  });

  it('a failing decode frees its slot', async () => {
    const g = gate();
    await expect(g.decode(() => Promise.reject(new Error('bad image')))).rejects.toThrow('bad image');
    expect(g.stats().slotsInUse).toBe(0);
  });
});
