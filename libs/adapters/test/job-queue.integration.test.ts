import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { eventually, jobQueueContract } from '@skald/ports/contract/job-queue.contract.ts';
import { createJobQueue } from '../src/job-queue/index.ts';
import { deleteByPrefix, REDIS_URL } from './redis-test-keys.ts';

jobQueueContract('embedded (sqlite)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'skald-jobs-'));
  const adapter = await createJobQueue({ kind: 'embedded', file: join(dir, 'jobs.db') });
  return {
    adapter,
    cleanup: async () => {
      await adapter.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

jobQueueContract('bullmq (redis)', async () => {
  const prefix = `test-jobs-${randomBytes(6).toString('hex')}`;
  const adapter = await createJobQueue({ kind: 'bullmq', url: REDIS_URL, prefix });
  return {
    adapter,
    cleanup: async () => {
      await adapter.close();
      await deleteByPrefix(`${prefix}:`);
    },
  };
});

describe('bullmq adapter specifics', () => {
  it('accepts ids BullMQ itself refuses (":" and integers), and retries dead jobs by generated id', async () => {
    const prefix = `test-jobs-${randomBytes(6).toString('hex')}`;
    const adapter = await createJobQueue({ kind: 'bullmq', url: REDIS_URL, prefix });
    const q = `ids-${randomBytes(3).toString('hex')}`;
    const attempts: string[] = [];
    let fail = true;
    const worker = await adapter.process(q, async (job) => {
      attempts.push(`${job.id}#${job.attempt}`);
      if (fail) throw new Error('nope');
    });
    try {
      expect(await adapter.add(q, 'a', null, { jobId: 'webhook:1:2' })).toBe('webhook:1:2');
      expect(await adapter.add(q, 'b', null, { jobId: '123' })).toBe('123');
      const generated = await adapter.add(q, 'c', null);
      expect(generated).toMatch(/^\d+$/);
      await eventually(async () => expect((await adapter.deadJobs(q)).map((d) => d.id).sort()).toEqual(['123', generated, 'webhook:1:2'].sort()));
      fail = false;
      expect(await adapter.retryDead(q, generated)).toBe(true);
      expect(await adapter.retryDead(q, '123')).toBe(true);
      await eventually(async () => expect((await adapter.deadJobs(q)).map((d) => d.id)).toEqual(['webhook:1:2']));
      await eventually(() => expect(attempts.filter((a) => a === '123#1')).toHaveLength(2));
      await eventually(() => expect(attempts.filter((a) => a === `${generated}#1`)).toHaveLength(2));
    } finally {
      await worker.close();
      await adapter.close();
      await deleteByPrefix(`${prefix}:`);
    }
  });

  it('caps completed and failed jobs kept in Redis', async () => {
    const prefix = `test-jobs-${randomBytes(6).toString('hex')}`;
    const adapter = await createJobQueue({ kind: 'bullmq', url: REDIS_URL, prefix });
    const q = `caps-${randomBytes(3).toString('hex')}`;
    const inspect = new Queue(q, { connection: { url: REDIS_URL }, prefix });
    try {
      const id = await adapter.add(q, 'x', null, { jobId: 'capped' });
      const job = await inspect.getJob(`c-${id}`);
      expect(job?.opts.removeOnComplete).toEqual({ count: 1000, age: 86_400 });
      expect(job?.opts.removeOnFail).toEqual({ count: 10_000, age: 2_592_000 });
    } finally {
      await inspect.close();
      await adapter.close();
      await deleteByPrefix(`${prefix}:`);
    }
  });
});

describe('bullmq worker crash', () => {
  it('redelivers a job whose worker was SIGKILLed mid-job, with its data intact (at-least-once)', async () => {
    const prefix = `test-jobs-${randomBytes(6).toString('hex')}`;
    const q = `crash-${randomBytes(3).toString('hex')}`;
    const adapter = await createJobQueue({ kind: 'bullmq', url: REDIS_URL, prefix, lockDurationMs: 1000, stalledIntervalMs: 1000 });
    const script = fileURLToPath(new URL('./job-queue-bullmq-child.ts', import.meta.url));
    const child = spawn(process.execPath, [script, REDIS_URL, prefix, q], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = once(child, 'exit');
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const nextLine = async (): Promise<string> => {
      const next = await Promise.race([lines.next(), exited.then(() => ({ done: true as const, value: undefined }))]);
      if (next.done) throw new Error('child exited before printing');
      return next.value;
    };
    try {
      expect(await nextLine()).toBe('ready');
      const id = await adapter.add(q, 'deliver', { hook: 'h1' }, { jobId: 'delivery:9' });
      expect(await nextLine()).toBe(`started ${id}`);
      child.kill('SIGKILL');
      await exited;
      const seen: { id: string; data: unknown }[] = [];
      const worker = await adapter.process(q, async (job) => {
        seen.push({ id: job.id, data: job.data });
      });
      await eventually(() => expect(seen).toEqual([{ id: 'delivery:9', data: { hook: 'h1' } }]), 10_000);
      await worker.close();
    } finally {
      child.kill('SIGKILL');
      await adapter.close();
      await deleteByPrefix(`${prefix}:`);
    }
  }, 90_000); // a worker child process is started (seconds of wall time on a loaded machine), SIGKILLed mid-job, and the job waits out its lock
});

describe('job options validation (both adapters)', () => {
  it('rejects nonsensical options before enqueueing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skald-jobs-'));
    const embedded = await createJobQueue({ kind: 'embedded', file: join(dir, 'jobs.db') });
    const bull = await createJobQueue({ kind: 'bullmq', url: REDIS_URL, prefix: `test-jobs-${randomBytes(6).toString('hex')}` });
    try {
      for (const adapter of [embedded, bull]) {
        await expect(adapter.add('q', 'x', null, { attempts: 0 })).rejects.toThrow(/attempts/);
        await expect(adapter.add('q', 'x', null, { delayMs: -5 })).rejects.toThrow(/delayMs/);
        await expect(adapter.add('q', 'x', null, { jobId: '' })).rejects.toThrow(/jobId/);
        await expect(adapter.schedule('q', 's', 0, 'x', null)).rejects.toThrow(/interval/);
        await expect(adapter.process('q', async () => {}, { concurrency: 0 })).rejects.toThrow(/concurrency/);
      }
    } finally {
      await embedded.close();
      await bull.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
