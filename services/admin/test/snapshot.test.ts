/** The whole-site answers' stale-while-revalidate holder (domain/snapshot.ts). */
import { describe, expect, it } from 'vitest';
import { createSnapshot } from '../src/domain/snapshot.ts';

describe('createSnapshot', () => {
  it('builds on first use, serves the stale value while rebuilding once, and keeps it when a rebuild fails', async () => {
    let clock = 0;
    let builds = 0;
    let fail = false;
    let release: () => void = () => undefined;
    const snapshot = createSnapshot(
      async () => {
        builds += 1;
        if (builds > 1) await new Promise<void>((done) => (release = done));
        if (fail) throw new Error('store down');
        return builds;
      },
      1000,
      () => clock,
    );
    expect(await Promise.all([snapshot.get(), snapshot.get()])).toEqual([1, 1]);
    expect(builds).toBe(1);
    clock = 999;
    expect(await snapshot.get()).toBe(1);
    expect(builds).toBe(1);
    clock = 1000;
    // Stale: answered at once with the old value, one rebuild started however many ask.
    expect(await snapshot.get()).toBe(1);
    expect(await snapshot.get()).toBe(1);
    expect(builds).toBe(2);
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect(await snapshot.get()).toBe(2);
    clock = 5000;
    fail = true;
    expect(await snapshot.get()).toBe(2);
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect(await snapshot.get()).toBe(2);
    expect(builds).toBe(4);
  });
});
