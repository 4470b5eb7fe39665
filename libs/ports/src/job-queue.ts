/**
 * Job queue port: delayed jobs, retries with backoff, repeatable schedules, dead-letter state.
 * Adapters: BullMQ (Redis) and an embedded SQLite-backed queue whose jobs survive a restart.
 */

export interface JobOptions {
  readonly delayMs?: number;
  /** Total attempts including the first. Default 1. */
  readonly attempts?: number;
  /** Delay before retry n (1-based) is backoff.delayMs * 2^(n-1) for exponential, delayMs for fixed. */
  readonly backoff?: { readonly type: 'fixed' | 'exponential'; readonly delayMs: number };
  /** Deduplication: a job with an id that is already waiting, delayed or active is not added again. */
  readonly jobId?: string;
}

export interface Job<T = unknown> {
  readonly id: string;
  readonly queue: string;
  readonly name: string;
  readonly data: T;
  /** 1 on the first run. */
  readonly attempt: number;
}

export type JobHandler = (job: Job) => Promise<void>;

export interface DeadJob {
  readonly id: string;
  readonly name: string;
  readonly data: unknown;
  readonly error: string;
  readonly attempts: number;
  readonly failedAt: number;
}

export interface Worker {
  /** Stops taking jobs and waits for running ones. */
  close(): Promise<void>;
}

/** Jobs of one queue by state (metrics). */
export interface QueueDepth {
  readonly queue: string;
  readonly waiting: number;
  readonly delayed: number;
  readonly active: number;
  /** Jobs that used up their attempts (deadJobs). */
  readonly dead: number;
}

export interface JobQueue {
  add(queue: string, name: string, data: unknown, options?: JobOptions): Promise<string>;
  /** Adds or replaces a repeatable schedule that enqueues `name` every `everyMs`. */
  schedule(queue: string, scheduleId: string, everyMs: number, name: string, data: unknown): Promise<void>;
  unschedule(queue: string, scheduleId: string): Promise<void>;
  process(queue: string, handler: JobHandler, options?: { readonly concurrency?: number }): Promise<Worker>;
  /** Jobs that used up their attempts. */
  deadJobs(queue: string): Promise<DeadJob[]>;
  /** Moves a dead job back to waiting with a fresh attempt count. */
  retryDead(queue: string, jobId: string): Promise<boolean>;
  close(): Promise<void>;
  /** Depth of every queue this instance added to or processed, for metrics. Optional like consumerLag. */
  depths?(): Promise<readonly QueueDepth[]>;
}
