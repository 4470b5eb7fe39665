/**
 * Job queue on BullMQ 6 (Redis). Dead jobs are BullMQ's failed set: a job lands there only
 * after its last attempt. Completed and failed jobs are capped so Redis does not grow
 * forever. Workers get their own connections with maxRetriesPerRequest: null, as BullMQ
 * requires for blocking commands.
 */
import { Queue, Worker as BullWorker } from 'bullmq';
import type { Job as BullJob, JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import type { DeadJob, JobHandler, JobOptions, JobQueue, QueueDepth, Worker } from '@skald/ports';
import { assertJobOptions, errorMessage } from './backoff.ts';

const REMOVE_ON_COMPLETE = { count: 1000, age: 24 * 60 * 60 };
const REMOVE_ON_FAIL = { count: 10_000, age: 30 * 24 * 60 * 60 };

export interface BullmqJobQueueOptions {
  readonly url: string;
  readonly prefix?: string;
  /**
   * How long a worker's lock on a job lasts without renewal, and how often stalled jobs (their
   * worker died) are looked for. BullMQ defaults: 30 s each. A job whose worker crashed is
   * redelivered after roughly lock + interval.
   */
  readonly lockDurationMs?: number;
  readonly stalledIntervalMs?: number;
}

export class BullmqJobQueue implements JobQueue {
  readonly #url: string;
  readonly #prefix: string;
  readonly #stallOptions: { lockDuration?: number; stalledInterval?: number };
  readonly #connection: Redis;
  readonly #queues = new Map<string, Queue>();
  /** Each worker with the connection it owns. */
  readonly #workers = new Map<BullWorker, Redis>();

  constructor(options: BullmqJobQueueOptions) {
    this.#url = options.url;
    this.#prefix = options.prefix ?? 'skald:jobs';
    this.#stallOptions = {
      ...(options.lockDurationMs === undefined ? {} : { lockDuration: options.lockDurationMs }),
      ...(options.stalledIntervalMs === undefined ? {} : { stalledInterval: options.stalledIntervalMs }),
    };
    this.#connection = new Redis(options.url, { maxRetriesPerRequest: null });
  }

  #queue(name: string): Queue {
    let queue = this.#queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.#connection, prefix: this.#prefix });
      queue.on('error', (error) => console.error(`job-queue ${name}: ${errorMessage(error)}`));
      this.#queues.set(name, queue);
    }
    return queue;
  }

  async add(queue: string, name: string, data: unknown, options: JobOptions = {}): Promise<string> {
    assertJobOptions(options);
    const q = this.#queue(queue);
    const opts: JobsOptions = {
      removeOnComplete: REMOVE_ON_COMPLETE,
      removeOnFail: REMOVE_ON_FAIL,
      attempts: options.attempts ?? 1,
      ...(options.delayMs ? { delay: options.delayMs } : {}),
      ...(options.backoff ? { backoff: { type: options.backoff.type, delay: options.backoff.delayMs } } : {}),
    };
    if (options.jobId !== undefined) {
      const bullId = encodeJobId(options.jobId);
      // BullMQ ignores an add whose id still exists in any state; the port only dedups pending
      // jobs, so a finished (completed or dead) job with this id is removed first.
      const existing = await q.getJob(bullId);
      if (existing) {
        const state = await existing.getState();
        if (state === 'completed' || state === 'failed') await existing.remove().catch(() => undefined);
      }
      opts.jobId = bullId;
    }
    const job = await q.add(name, data ?? null, opts);
    return decodeJobId(job.id!);
  }

  async schedule(queue: string, scheduleId: string, everyMs: number, name: string, data: unknown): Promise<void> {
    if (!Number.isSafeInteger(everyMs) || everyMs <= 0) throw new Error(`invalid schedule interval: ${everyMs}`);
    await this.#queue(queue).upsertJobScheduler(
      scheduleId,
      // BullMQ runs an `every` scheduler's first job at once; the port's first run is one interval later
      // (the embedded queue's behaviour and what services expect: "every N hours" from now).
      { every: everyMs, startDate: Date.now() + everyMs },
      { name, data: data ?? null, opts: { removeOnComplete: REMOVE_ON_COMPLETE, removeOnFail: REMOVE_ON_FAIL } },
    );
  }

  async unschedule(queue: string, scheduleId: string): Promise<void> {
    await this.#queue(queue).removeJobScheduler(scheduleId);
  }

  async process(queue: string, handler: JobHandler, options: { readonly concurrency?: number } = {}): Promise<Worker> {
    const concurrency = options.concurrency ?? 1;
    if (!Number.isSafeInteger(concurrency) || concurrency < 1) throw new Error(`invalid concurrency: ${concurrency}`);
    const connection = new Redis(this.#url, { maxRetriesPerRequest: null });
    const worker = new BullWorker(
      queue,
      async (job: BullJob) => {
        await handler({ id: decodeJobId(job.id!), queue, name: job.name, data: job.data as unknown, attempt: job.attemptsMade + 1 });
      },
      { connection, prefix: this.#prefix, concurrency, ...this.#stallOptions },
    );
    // Without a listener an 'error' event (e.g. a Redis blip) would crash the process.
    worker.on('error', (error) => console.error(`job-queue worker ${queue}: ${errorMessage(error)}`));
    this.#workers.set(worker, connection);
    await worker.waitUntilReady();
    return {
      close: async () => {
        if (!this.#workers.delete(worker)) return;
        await worker.close();
        await connection.quit().catch(() => undefined);
      },
    };
  }

  /** BullMQ's counts of every queue this instance used; its `failed` jobs are the port's dead ones. */
  async depths(): Promise<readonly QueueDepth[]> {
    return Promise.all(
      [...this.#queues].map(async ([name, queue]) => {
        const counts = await queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'failed');
        return {
          queue: name,
          waiting: (counts['waiting'] ?? 0) + (counts['prioritized'] ?? 0),
          delayed: counts['delayed'] ?? 0,
          active: counts['active'] ?? 0,
          dead: counts['failed'] ?? 0,
        };
      }),
    );
  }

  async deadJobs(queue: string): Promise<DeadJob[]> {
    const jobs = await this.#queue(queue).getFailed(0, -1);
    return jobs
      .filter((job): job is BullJob & { id: string } => job !== undefined && job.id !== undefined)
      .map((job) => ({
        id: decodeJobId(job.id),
        name: job.name,
        data: job.data as unknown,
        error: job.failedReason ?? '',
        attempts: job.attemptsMade,
        failedAt: job.finishedOn ?? job.processedOn ?? job.timestamp,
      }))
      .sort((a, b) => b.failedAt - a.failedAt);
  }

  async retryDead(queue: string, jobId: string): Promise<boolean> {
    const q = this.#queue(queue);
    // A caller's id may be a custom one ("123" included) or one BullMQ generated.
    const job = (await q.getJob(encodeJobId(jobId))) ?? (/^\d+$/.test(jobId) ? await q.getJob(jobId) : undefined);
    if (!job || (await job.getState()) !== 'failed') return false;
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return true;
  }

  async close(): Promise<void> {
    // Worker.close() waits for the jobs it is running.
    await Promise.all(
      [...this.#workers].map(async ([worker, connection]) => {
        this.#workers.delete(worker);
        await worker.close();
        await connection.quit().catch(() => undefined);
      }),
    );
    await Promise.all([...this.#queues.values()].map((queue) => queue.close()));
    this.#queues.clear();
    await this.#connection.quit().catch(() => undefined);
  }
}

/*
 * BullMQ refuses custom ids that are integers or contain ':'; ours (e.g. "webhook:42:7") may be
 * both. Custom ids are stored as "c-" + percent-escaped id; BullMQ's own ids are plain integers,
 * so the two never collide and decoding is unambiguous.
 */
export function encodeJobId(jobId: string): string {
  return `c-${jobId.replace(/%/g, '%25').replace(/:/g, '%3A')}`;
}

export function decodeJobId(bullId: string): string {
  return bullId.startsWith('c-') ? bullId.slice(2).replace(/%3A/g, ':').replace(/%25/g, '%') : bullId;
}
