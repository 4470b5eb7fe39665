/**
 * Behaviour every Counters adapter must show. Keys are random per test so suites
 * sharing one Redis do not collide.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Counters } from '../src/counters.ts';

export interface CountersHarness {
  readonly adapter: Counters;
  cleanup(): Promise<void>;
}

export function countersContract(name: string, makeAdapter: () => Promise<CountersHarness>): void {
  describe(`Counters contract: ${name}`, () => {
    let harness: CountersHarness;
    let counters: Counters;
    const key = (label: string): string => `${label}:${randomUUID()}`;

    beforeAll(async () => {
      harness = await makeAdapter();
      counters = harness.adapter;
    });
    afterAll(async () => {
      await harness.cleanup();
    });

    it('consumes points until the limit, then refuses without consuming', async () => {
      const k = key('limit');
      expect((await counters.consume(k, 3, 5, 60_000)).used).toBe(3);
      const refused = await counters.consume(k, 3, 5, 60_000);
      expect(refused.allowed).toBe(false);
      expect(refused.used).toBe(3);
      const fits = await counters.consume(k, 2, 5, 60_000);
      expect(fits).toMatchObject({ allowed: true, used: 5, limit: 5 });
      expect((await counters.consume(k, 1, 5, 60_000)).allowed).toBe(false);
    });

    it('never admits more than the limit under many parallel consumes', async () => {
      const k = key('parallel');
      const results = await Promise.all(Array.from({ length: 200 }, () => counters.consume(k, 1, 37, 60_000)));
      expect(results.filter((r) => r.allowed)).toHaveLength(37);
      expect(Math.max(...results.map((r) => r.used))).toBe(37);
      expect(await counters.get(k)).toBe(37);
    });

    it('admits multi-point consumes all-or-nothing in parallel', async () => {
      const k = key('multi');
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => counters.consume(k, (i % 3) + 1, 20, 60_000)));
      const admitted = results.filter((r) => r.allowed).length;
      expect(admitted).toBeGreaterThan(0);
      const used = await counters.get(k);
      expect(used).toBeLessThanOrEqual(20);
      const sumAdmitted = results.reduce((sum, r, i) => sum + (r.allowed ? (i % 3) + 1 : 0), 0);
      expect(used).toBe(sumAdmitted);
    });

    it('reports resetAt as the end of the window that the first consume opened', async () => {
      const k = key('reset-at');
      const before = Date.now();
      const first = await counters.consume(k, 1, 10, 5_000);
      const after = Date.now();
      expect(first.resetAt).toBeGreaterThanOrEqual(before + 5_000 - 50);
      expect(first.resetAt).toBeLessThanOrEqual(after + 5_000 + 50);
      await sleep(30);
      const second = await counters.consume(k, 1, 10, 5_000);
      // Fixed window: a later consume does not push the end of the window out, and answers the same end
      // however late its reply is read (at most a millisecond of rounding apart).
      expect(Math.abs(second.resetAt - first.resetAt)).toBeLessThanOrEqual(1);
    });

    it('opens a fresh window after windowMs', async () => {
      const k = key('window');
      expect((await counters.consume(k, 2, 2, 150)).allowed).toBe(true);
      expect((await counters.consume(k, 1, 2, 150)).allowed).toBe(false);
      await sleep(250);
      const fresh = await counters.consume(k, 1, 2, 150);
      expect(fresh).toMatchObject({ allowed: true, used: 1 });
    });

    it('peek reads the window without consuming', async () => {
      const k = key('peek');
      const empty = await counters.peek(k, 4, 60_000);
      expect(empty).toMatchObject({ allowed: true, used: 0, limit: 4 });
      await counters.consume(k, 3, 4, 60_000);
      for (let i = 0; i < 3; i++) expect((await counters.peek(k, 4, 60_000)).used).toBe(3);
      const consumed = await counters.consume(k, 1, 4, 60_000);
      expect(consumed).toMatchObject({ allowed: true, used: 4 });
      const full = await counters.peek(k, 4, 60_000);
      expect(full).toMatchObject({ allowed: false, used: 4 });
      expect(Math.abs(full.resetAt - consumed.resetAt)).toBeLessThanOrEqual(1);
    });

    it('release gives points back within the window, never below 0, and never opens or extends one', async () => {
      const k = key('release');
      const opened = await counters.consume(k, 5, 5, 60_000);
      expect(await counters.release(k, 2)).toBe(3);
      const after = await counters.peek(k, 5, 60_000);
      expect(after).toMatchObject({ allowed: true, used: 3 });
      expect(Math.abs(after.resetAt - opened.resetAt)).toBeLessThan(50);
      expect((await counters.consume(k, 2, 5, 60_000)).allowed).toBe(true);
      expect(await counters.release(k, 99)).toBe(0);
      expect(await counters.get(k)).toBe(0);
      const never = key('release-unopened');
      expect(await counters.release(never, 3)).toBe(0);
      expect(await counters.get(never)).toBe(0);
      expect((await counters.consume(never, 5, 5, 60_000)).allowed).toBe(true);
    });

    it('release after the window ended leaves the fresh window alone', async () => {
      const k = key('release-late');
      await counters.consume(k, 2, 2, 150);
      await sleep(250);
      expect(await counters.release(k, 2)).toBe(0);
      expect((await counters.consume(k, 2, 2, 150)).allowed).toBe(true);
    });

    it('increments a plain counter that expires ttlMs after its first increment', async () => {
      const k = key('incr');
      expect(await counters.increment(k, 2, 200)).toBe(2);
      expect(await counters.increment(k, 5, 200)).toBe(7);
      expect(await counters.get(k)).toBe(7);
      await sleep(120);
      // A later increment does not extend the TTL.
      expect(await counters.increment(k, 1, 200)).toBe(8);
      await sleep(150);
      expect(await counters.get(k)).toBe(0);
      expect(await counters.increment(k, 1, 200)).toBe(1);
    });

    it('counts parallel increments exactly', async () => {
      const k = key('incr-parallel');
      await Promise.all(Array.from({ length: 100 }, () => counters.increment(k, 1, 60_000)));
      expect(await counters.get(k)).toBe(100);
    });

    it('reset clears a window and a counter; get of a missing key is 0', async () => {
      const k = key('clear');
      await counters.consume(k, 5, 5, 60_000);
      await counters.reset(k);
      expect(await counters.get(k)).toBe(0);
      expect((await counters.consume(k, 5, 5, 60_000)).allowed).toBe(true);
      await counters.reset(key('never-used'));
      expect(await counters.get(key('missing'))).toBe(0);
    });

    it('rejects invalid arguments', async () => {
      await expect(counters.consume(key('bad'), -1, 5, 1000)).rejects.toThrow();
      await expect(counters.consume(key('bad'), 1, 5, 0)).rejects.toThrow();
      await expect(counters.increment(key('bad'), 1.5, 1000)).rejects.toThrow();
      await expect(counters.release(key('bad'), -1)).rejects.toThrow();
    });
  });
}
