import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Job, JobQueue } from '@skald/ports';
import { eventually } from '@skald/ports/contract/job-queue.contract.ts';
import { createJobQueue } from '../src/job-queue/index.ts';

describe('embedded job queue survives restarts', () => {
  let dir: string;
  let file: string;
  const open: JobQueue[] = [];
  const openQueue = async (): Promise<JobQueue> => {
    const queue = await createJobQueue({ kind: 'embedded', file });
    open.push(queue);
    return queue;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skald-jobs-restart-'));
    file = join(dir, 'nested', 'jobs.db');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((queue) => queue.close()));
    await rm(dir, { recursive: true, force: true });
  });

  it('runs a job that was added before a clean close', async () => {
    const first = await openQueue();
    const id = await first.add('mail', 'welcome', { to: 'a@example.com' });
    await first.close();
    const second = await openQueue();
    const seen: Job[] = [];
    await second.process('mail', async (job) => {
      seen.push(job);
    });
    await eventually(() => expect(seen).toHaveLength(1));
    expect(seen[0]).toMatchObject({ id, name: 'welcome', data: { to: 'a@example.com' }, attempt: 1 });
  });

  it('keeps delays, dead jobs and schedules across a restart', async () => {
    const first = await openQueue();
    await first.add('q', 'delayed', null, { delayMs: 600 });
    await first.schedule('q', 'tick', 150, 'tick', { n: 1 });
    const failing = await first.process('q', async (job) => {
      if (job.name === 'doomed') throw new Error('always fails');
    });
    await first.add('q', 'doomed', null);
    await eventually(async () => expect(await first.deadJobs('q')).toHaveLength(1));
    await failing.close();
    await first.close();

    const second = await openQueue();
    expect((await second.deadJobs('q')).map((dead) => dead.error)).toEqual(['always fails']);
    const ran: { name: string; at: number }[] = [];
    const reopenedAt = Date.now();
    await second.process('q', async (job) => {
      ran.push({ name: job.name, at: Date.now() });
    });
    await eventually(() => expect(ran.filter((r) => r.name === 'tick').length).toBeGreaterThanOrEqual(2));
    await eventually(() => expect(ran.filter((r) => r.name === 'delayed')).toHaveLength(1));
    // The delay was counted from the original add, not restarted.
    expect(ran.find((r) => r.name === 'delayed')!.at - reopenedAt).toBeLessThan(1500);
  });

  it('runs a job whose add returned before the process was SIGKILLed', async () => {
    const child = startChild('add', file);
    const line = await child.nextLine();
    expect(line).toMatch(/^added /);
    await child.kill();
    const id = line.split(' ')[1];
    const queue = await openQueue();
    const seen: Job[] = [];
    await queue.process('crash', async (job) => {
      seen.push(job);
    });
    await eventually(() => expect(seen).toHaveLength(1));
    expect(seen[0]).toMatchObject({ id, name: 'survives-kill', data: { step: 'added' } });
  });

  it('runs again a job that was active when the process was SIGKILLed (at-least-once)', async () => {
    const child = startChild('work', file);
    expect(await child.nextLine()).toBe('started mid-job-1 1');
    await child.kill();
    const queue = await openQueue();
    const seen: Job[] = [];
    await queue.process('crash', async (job) => {
      seen.push(job);
    });
    await eventually(() => expect(seen).toHaveLength(1));
    expect(seen[0]).toMatchObject({ id: 'mid-job-1', name: 'killed-mid-job', data: { step: 'working' } });
    // A fixed wait, kept on purpose: it proves the job is not run a second time, which sends no signal.
    await sleep(200);
    expect(seen).toHaveLength(1);
    expect(await queue.deadJobs('crash')).toEqual([]);
  });

  it('refuses work after close', async () => {
    const queue = await openQueue();
    await queue.close();
    await expect(queue.add('q', 'x', null)).rejects.toThrow(/closed/);
  });
});

function startChild(mode: 'add' | 'work', file: string): { nextLine(): Promise<string>; kill(): Promise<void> } {
  const script = fileURLToPath(new URL('./job-queue-child.ts', import.meta.url));
  const child = spawn(process.execPath, [script, mode, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = once(child, 'exit');
  return {
    nextLine: async () => {
      const next = await Promise.race([lines.next(), exited.then(() => ({ done: true as const, value: undefined }))]);
      if (next.done) throw new Error('child exited before printing');
      return next.value;
    },
    kill: async () => {
      child.kill('SIGKILL');
      const [, signal] = await exited;
      expect(signal).toBe('SIGKILL');
    },
  };
}

describe('embedded job queue shared within one process', () => {
  it('hands out one open file per path: a second handle neither steals active jobs nor misses wake-ups', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skald-jobs-shared-'));
    const file = join(dir, 'jobs.db');
    const a = await createJobQueue({ kind: 'embedded', file });
    try {
      let runs = 0;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      await a.process('q', async () => {
        runs++;
        await gate;
      });
      await a.add('q', 'long', null);
      await eventually(() => expect(runs).toBe(1));
      // Opening the same file again must not run crash recovery on a's active job.
      const b = await createJobQueue({ kind: 'embedded', file: join(dir, '.', 'jobs.db') });
      const seenByB: string[] = [];
      await b.process('other', async (job) => {
        seenByB.push(job.name);
      });
      await a.add('other', 'from-a', null);
      await eventually(() => expect(seenByB).toEqual(['from-a']), 500);
      await b.close();
      release();
      // A fixed wait, kept on purpose: it proves b's closed handle does not run the job again, which sends no signal.
      await sleep(200);
      expect(runs).toBe(1);
      // a is still usable after b's handle closed.
      await a.add('q', 'second', null);
      await eventually(() => expect(runs).toBe(2));
    } finally {
      await a.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
