/**
 * Behaviour every JobQueue adapter must show. Each test uses its own queue name, so one
 * adapter instance (and one Redis prefix) serves the whole suite.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, JobQueue, Worker } from '../src/job-queue.ts';

export interface JobQueueHarness {
  readonly adapter: JobQueue;
  cleanup(): Promise<void>;
}

/** Polls until `check` passes or the deadline expires (then throws its last failure). */
export async function eventually(check: () => void | Promise<void>, timeoutMs = 5000, intervalMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(intervalMs);
    }
  }
}

export function jobQueueContract(name: string, makeAdapter: () => Promise<JobQueueHarness>): void {
  describe(`JobQueue contract: ${name}`, () => {
    let harness: JobQueueHarness;
    let queue: JobQueue;
    const workers: Worker[] = [];
    const queueName = (label: string): string => `${label}-${randomBytes(4).toString('hex')}`;
    const startWorker = async (q: string, handler: (job: Job) => Promise<void>, concurrency?: number): Promise<Worker> => {
      const worker = await queue.process(q, handler, concurrency === undefined ? {} : { concurrency });
      workers.push(worker);
      return worker;
    };

    beforeAll(async () => {
      harness = await makeAdapter();
      queue = harness.adapter;
    });
    afterAll(async () => {
      await Promise.all(workers.map((worker) => worker.close()));
      await harness.cleanup();
    });

    it('runs an added job once with its name, data and attempt 1', async () => {
      const q = queueName('basic');
      const seen: Job[] = [];
      await startWorker(q, async (job) => {
        seen.push(job);
      });
      const id = await queue.add(q, 'send-report', { serverId: 's1', nested: { n: [1, 2] } });
      await eventually(() => expect(seen).toHaveLength(1));
      expect(seen[0]).toEqual({ id, queue: q, name: 'send-report', data: { serverId: 's1', nested: { n: [1, 2] } }, attempt: 1 });
      await sleep(150);
      expect(seen).toHaveLength(1);
      expect(await queue.deadJobs(q)).toEqual([]);
    });

    it('runs jobs added before a worker starts', async () => {
      const q = queueName('backlog');
      await queue.add(q, 'a', 1);
      await queue.add(q, 'b', 2);
      const names: string[] = [];
      await startWorker(q, async (job) => {
        names.push(job.name);
      });
      await eventually(() => expect(names.sort()).toEqual(['a', 'b']));
    });

    it('reports each queue\'s depth by state: waiting and delayed before a worker, dead after, none left once run', async () => {
      expect(queue.depths, 'every adapter here reports queue depths').toBeTypeOf('function');
      const q = queueName('depth');
      const depthOf = async () => (await queue.depths!()).find((entry) => entry.queue === q);
      await queue.add(q, 'now-1', 1);
      await queue.add(q, 'now-2', 2);
      await queue.add(q, 'later', 3, { delayMs: 60_000 });
      expect(await depthOf()).toEqual({ queue: q, waiting: 2, delayed: 1, active: 0, dead: 0 });
      await startWorker(q, async (job) => {
        if (job.name === 'now-2') throw new Error('down');
      });
      await eventually(async () => expect(await depthOf()).toEqual({ queue: q, waiting: 0, delayed: 1, active: 0, dead: 1 }));
    });

    it('honours delayMs', async () => {
      const q = queueName('delay');
      const ranAt: number[] = [];
      await startWorker(q, async () => {
        ranAt.push(Date.now());
      });
      const addedAt = Date.now();
      await queue.add(q, 'later', null, { delayMs: 400 });
      await sleep(250);
      expect(ranAt).toHaveLength(0);
      await eventually(() => expect(ranAt).toHaveLength(1));
      expect(ranAt[0]! - addedAt).toBeGreaterThanOrEqual(390);
    });

    it('retries with exponential backoff, then keeps the job dead with the last error', async () => {
      const q = queueName('retry');
      const attempts: { attempt: number; at: number }[] = [];
      await startWorker(q, async (job) => {
        attempts.push({ attempt: job.attempt, at: Date.now() });
        throw new Error(`boom ${job.attempt}`);
      });
      const id = await queue.add(q, 'flaky', { x: 1 }, { attempts: 3, backoff: { type: 'exponential', delayMs: 150 } });
      await eventually(async () => expect(await queue.deadJobs(q)).toHaveLength(1));
      expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
      expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(140);
      expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(290);
      const [dead] = await queue.deadJobs(q);
      expect(dead).toMatchObject({ id, name: 'flaky', data: { x: 1 }, error: 'boom 3', attempts: 3 });
      expect(Math.abs(dead!.failedAt - attempts[2]!.at)).toBeLessThan(2000);
    });

    it('uses a fixed backoff and stops retrying once an attempt succeeds', async () => {
      const q = queueName('fixed');
      const times: number[] = [];
      await startWorker(q, async (job) => {
        times.push(Date.now());
        if (job.attempt < 3) throw new Error('not yet');
      });
      await queue.add(q, 'eventually-ok', null, { attempts: 5, backoff: { type: 'fixed', delayMs: 150 } });
      await eventually(() => expect(times).toHaveLength(3));
      expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(140);
      expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(140);
      expect(times[2]! - times[1]!).toBeLessThan(1500);
      await sleep(300);
      expect(times).toHaveLength(3);
      expect(await queue.deadJobs(q)).toEqual([]);
    });

    it('fails a job once by default (attempts = 1)', async () => {
      const q = queueName('once');
      let runs = 0;
      await startWorker(q, async () => {
        runs++;
        throw new Error('no retry');
      });
      await queue.add(q, 'single', null);
      await eventually(async () => expect(await queue.deadJobs(q)).toHaveLength(1));
      await sleep(200);
      expect(runs).toBe(1);
    });

    it('retryDead moves a dead job back with a fresh attempt count', async () => {
      const q = queueName('retry-dead');
      let fail = true;
      const attempts: number[] = [];
      await startWorker(q, async (job) => {
        attempts.push(job.attempt);
        if (fail) throw new Error('down');
      });
      const id = await queue.add(q, 'hook', { url: 'x' }, { jobId: 'webhook:42:7', attempts: 2 });
      expect(id).toBe('webhook:42:7');
      await eventually(async () => expect((await queue.deadJobs(q)).map((d) => d.id)).toEqual([id]));
      fail = false;
      expect(await queue.retryDead(q, id)).toBe(true);
      await eventually(() => expect(attempts).toEqual([1, 2, 1]));
      await eventually(async () => expect(await queue.deadJobs(q)).toEqual([]));
      expect(await queue.retryDead(q, id)).toBe(false);
      expect(await queue.retryDead(q, 'no-such-job')).toBe(false);
    });

    it('deduplicates by jobId while the job is pending, but accepts it again once done', async () => {
      const q = queueName('dedup');
      const runs: unknown[] = [];
      const first = await queue.add(q, 'once', 'first', { jobId: 'export-7', delayMs: 300 });
      const second = await queue.add(q, 'once', 'second', { jobId: 'export-7' });
      expect(first).toBe('export-7');
      expect(second).toBe('export-7');
      await startWorker(q, async (job) => {
        runs.push(job.data);
      });
      await eventually(() => expect(runs).toEqual(['first']));
      await sleep(200);
      expect(runs).toEqual(['first']);
      await queue.add(q, 'once', 'third', { jobId: 'export-7' });
      await eventually(() => expect(runs).toEqual(['first', 'third']));
    });

    it('never runs more jobs at once than the concurrency, and uses all of it', async () => {
      const q = queueName('concurrency');
      let inFlight = 0;
      let maxInFlight = 0;
      let done = 0;
      await startWorker(
        q,
        async () => {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await sleep(150);
          inFlight--;
          done++;
        },
        3,
      );
      await Promise.all(Array.from({ length: 9 }, (_, i) => queue.add(q, 'work', i)));
      await eventually(() => expect(done).toBe(9), 10_000);
      expect(maxInFlight).toBe(3);
    });

    it('fires a schedule repeatedly; replacing it keeps one series; unschedule stops it', async () => {
      const q = queueName('schedule');
      const fired: { name: string; data: unknown; at: number }[] = [];
      await startWorker(q, async (job) => {
        fired.push({ name: job.name, data: job.data, at: Date.now() });
      });
      await queue.schedule(q, 'cleanup', 200, 'purge', { v: 1 });
      await eventually(() => expect(fired.length).toBeGreaterThanOrEqual(3), 5000);
      await queue.schedule(q, 'cleanup', 200, 'purge', { v: 2 });
      await eventually(() => expect(fired.filter((f) => (f.data as { v: number }).v === 2).length).toBeGreaterThanOrEqual(6), 8000);
      const v2 = fired.filter((f) => (f.data as { v: number }).v === 2);
      // One series, not two: at most one run per interval over the span (plus one for a late run's catch-up).
      // Two series would fire about twice as often. Individual gaps are not checked: on a loaded machine a late
      // run is followed by an on-time one, so single gaps shrink while the rate stays one per interval.
      const span = v2[v2.length - 1]!.at - v2[0]!.at;
      expect(v2.length - 1).toBeLessThanOrEqual(Math.floor(span / 200) + 1);
      expect(fired.every((f) => f.name === 'purge')).toBe(true);
      await queue.unschedule(q, 'cleanup');
      await sleep(100);
      const count = fired.length;
      await sleep(700);
      expect(fired.length).toBe(count);
    });

    it('runs a schedule first one interval after it is set, not at once', async () => {
      // Services schedule on save (backups: "every N hours" from now); a first run at once would race a
      // "Create now" right after saving (409) and differ between adapters.
      const q = queueName('first-run');
      const fired: number[] = [];
      await startWorker(q, async () => {
        fired.push(Date.now());
      });
      const setAt = Date.now();
      await queue.schedule(q, 'later', 1500, 'tick', null);
      await sleep(900);
      expect(fired, 'no run before the first interval has passed').toEqual([]);
      await eventually(() => expect(fired.length).toBeGreaterThanOrEqual(1), 5000);
      expect(fired[0]! - setAt).toBeGreaterThanOrEqual(1400);
      await queue.unschedule(q, 'later');
    });

    it('worker.close() waits for running jobs and takes no new ones', async () => {
      const q = queueName('close');
      let finished = 0;
      let started = 0;
      const worker = await queue.process(q, async () => {
        started++;
        await sleep(400);
        finished++;
      });
      await queue.add(q, 'slow', null);
      await eventually(() => expect(started).toBe(1));
      await worker.close();
      expect(finished).toBe(1);
      await queue.add(q, 'after-close', null);
      await sleep(400);
      expect(started).toBe(1);
    });
  });
}
