/**
 * Embedded job queue on SQLite (node:sqlite) for single-process installs. Jobs, retries,
 * dead jobs and schedules live in one database file, so they survive a restart; a job that
 * was active when the process died is put back to waiting on the next open (at-least-once).
 *
 * One process owns the file. Claiming is a synchronous read-modify-write on the single
 * connection, so two workers in the process never take the same job.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { DeadJob, Job, JobHandler, JobOptions, JobQueue, QueueDepth, Worker } from '@skald/ports';
import { assertJobOptions, backoffDelayMs, errorMessage } from './backoff.ts';
import { writeTransaction } from '../sqlite/transaction.ts';

/** Safety net: even without a known due time, workers look again this often. */
const MAX_SLEEP_MS = 1000;
/** Dead jobs kept per queue; older ones are dropped first. */
const DEAD_JOBS_KEPT = 1000;

interface JobRow {
  queue: string;
  id: string;
  name: string;
  data: string;
  attempt: number;
}

interface LocalWorker {
  readonly queue: string;
  pump(): void;
  /** Stops taking jobs and resolves once the running ones have settled. */
  stop(): Promise<void>;
}

export class EmbeddedJobQueue implements JobQueue {
  readonly #db: DatabaseSync;
  readonly #workers = new Set<LocalWorker>();
  #closed = false;

  constructor(file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.#db = new DatabaseSync(file);
    this.#db.exec(`
      PRAGMA busy_timeout = 5000;
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      CREATE TABLE IF NOT EXISTS jobs (
        queue TEXT NOT NULL,
        id TEXT NOT NULL,
        name TEXT NOT NULL,
        data TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('waiting', 'delayed', 'active', 'dead')),
        attempt INTEGER NOT NULL DEFAULT 0,
        max_attempts INTEGER NOT NULL,
        backoff_type TEXT,
        backoff_delay INTEGER NOT NULL DEFAULT 0,
        run_at INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        last_error TEXT,
        failed_at INTEGER,
        schedule_id TEXT,
        PRIMARY KEY (queue, id)
      );
      CREATE INDEX IF NOT EXISTS jobs_due ON jobs (queue, state, run_at, seq);
      CREATE TABLE IF NOT EXISTS schedules (
        queue TEXT NOT NULL,
        schedule_id TEXT NOT NULL,
        every_ms INTEGER NOT NULL,
        name TEXT NOT NULL,
        data TEXT NOT NULL,
        next_run_at INTEGER NOT NULL,
        PRIMARY KEY (queue, schedule_id)
      );
    `);
    // The previous process died with these jobs in hand: run them again (at-least-once).
    this.#db.prepare(`UPDATE jobs SET state = 'waiting' WHERE state = 'active'`).run();
  }

  async add(queue: string, name: string, data: unknown, options: JobOptions = {}): Promise<string> {
    this.#assertOpen();
    assertJobOptions(options);
    const id = this.#insert(queue, name, data, options, null);
    this.#wake(queue);
    return id;
  }

  /** Inserts unless a job with the same id is still pending; returns the id either way. */
  #insert(queue: string, name: string, data: unknown, options: JobOptions, scheduleId: string | null): string {
    const id = options.jobId ?? randomUUID();
    const now = Date.now();
    const delayMs = options.delayMs ?? 0;
    writeTransaction(this.#db, () => {
      const existing = this.#db.prepare('SELECT state FROM jobs WHERE queue = ? AND id = ?').get(queue, id) as { state: string } | undefined;
      if (existing && existing.state !== 'dead') return;
      // A dead job with the same id is replaced: the new add is a fresh job.
      if (existing) this.#db.prepare('DELETE FROM jobs WHERE queue = ? AND id = ?').run(queue, id);
      this.#db
        .prepare(
          `INSERT INTO jobs (queue, id, name, data, state, attempt, max_attempts, backoff_type, backoff_delay, run_at, seq, schedule_id)
           VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM jobs), ?)`,
        )
        .run(
          queue,
          id,
          name,
          JSON.stringify(data ?? null),
          delayMs > 0 ? 'delayed' : 'waiting',
          options.attempts ?? 1,
          options.backoff?.type ?? null,
          options.backoff?.delayMs ?? 0,
          now + delayMs,
          scheduleId,
        );
    });
    return id;
  }

  async schedule(queue: string, scheduleId: string, everyMs: number, name: string, data: unknown): Promise<void> {
    this.#assertOpen();
    if (!Number.isSafeInteger(everyMs) || everyMs <= 0) throw new Error(`invalid schedule interval: ${everyMs}`);
    this.#db
      .prepare(
        `INSERT INTO schedules (queue, schedule_id, every_ms, name, data, next_run_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (queue, schedule_id) DO UPDATE SET every_ms = excluded.every_ms, name = excluded.name,
           data = excluded.data, next_run_at = excluded.next_run_at`,
      )
      .run(queue, scheduleId, everyMs, name, JSON.stringify(data ?? null), Date.now() + everyMs);
    // A pending run of the old definition would otherwise fire with stale name/data.
    this.#db.prepare(`DELETE FROM jobs WHERE queue = ? AND schedule_id = ? AND state IN ('waiting', 'delayed')`).run(queue, scheduleId);
    this.#wake(queue);
  }

  async unschedule(queue: string, scheduleId: string): Promise<void> {
    this.#assertOpen();
    this.#db.prepare('DELETE FROM schedules WHERE queue = ? AND schedule_id = ?').run(queue, scheduleId);
    this.#db.prepare(`DELETE FROM jobs WHERE queue = ? AND schedule_id = ? AND state IN ('waiting', 'delayed')`).run(queue, scheduleId);
  }

  async process(queue: string, handler: JobHandler, options: { readonly concurrency?: number } = {}): Promise<Worker> {
    this.#assertOpen();
    const concurrency = options.concurrency ?? 1;
    if (!Number.isSafeInteger(concurrency) || concurrency < 1) throw new Error(`invalid concurrency: ${concurrency}`);
    const running = new Set<Promise<void>>();
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;

    const worker: LocalWorker = {
      queue,
      stop: async () => {
        stopped = true;
        clearTimeout(timer);
        this.#workers.delete(worker);
        while (running.size > 0) await Promise.allSettled([...running]);
      },
      pump: () => {
        if (stopped) return;
        clearTimeout(timer);
        while (running.size < concurrency) {
          this.#materializeSchedules(queue);
          const row = this.#claim(queue);
          if (!row) break;
          const run = this.#run(row, handler).finally(() => {
            running.delete(run);
            worker.pump();
          });
          running.add(run);
        }
        if (running.size < concurrency) {
          const next = this.#nextDueAt(queue);
          const sleep = next === null ? MAX_SLEEP_MS : Math.max(0, Math.min(MAX_SLEEP_MS, next - Date.now()));
          timer = setTimeout(worker.pump, sleep);
        }
      },
    };
    this.#workers.add(worker);
    worker.pump();
    return { close: () => worker.stop() };
  }

  async depths(): Promise<readonly QueueDepth[]> {
    const rows = this.#db.prepare('SELECT queue, state, COUNT(*) AS n FROM jobs GROUP BY queue, state').all();
    const byQueue = new Map<string, { waiting: number; delayed: number; active: number; dead: number }>();
    // A queue with a schedule or a worker but no job at the moment still reports its zeros.
    const idle = [
      ...this.#db.prepare('SELECT DISTINCT queue FROM schedules').all().map((row) => String(row['queue'])),
      ...[...this.#workers].map((worker) => worker.queue),
    ];
    for (const queue of idle) byQueue.set(queue, { waiting: 0, delayed: 0, active: 0, dead: 0 });
    for (const row of rows) {
      const queue = String(row['queue']);
      const depth = byQueue.get(queue) ?? { waiting: 0, delayed: 0, active: 0, dead: 0 };
      const state = String(row['state']);
      if (state === 'waiting' || state === 'delayed' || state === 'active' || state === 'dead') depth[state] = Number(row['n']);
      byQueue.set(queue, depth);
    }
    return [...byQueue].map(([queue, depth]) => ({ queue, ...depth }));
  }

  async deadJobs(queue: string): Promise<DeadJob[]> {
    const rows = this.#db
      .prepare(`SELECT id, name, data, last_error, attempt, failed_at FROM jobs WHERE queue = ? AND state = 'dead' ORDER BY failed_at DESC, seq DESC`)
      .all(queue) as { id: string; name: string; data: string; last_error: string | null; attempt: number; failed_at: number }[];
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      data: JSON.parse(row.data) as unknown,
      error: row.last_error ?? '',
      attempts: row.attempt,
      failedAt: row.failed_at,
    }));
  }

  async retryDead(queue: string, jobId: string): Promise<boolean> {
    this.#assertOpen();
    const result = this.#db
      .prepare(`UPDATE jobs SET state = 'waiting', attempt = 0, run_at = ?, last_error = NULL, failed_at = NULL WHERE queue = ? AND id = ? AND state = 'dead'`)
      .run(Date.now(), queue, jobId);
    if (result.changes === 0) return false;
    this.#wake(queue);
    return true;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Running jobs finish and record their outcome before the file closes.
    await Promise.all([...this.#workers].map((worker) => worker.stop()));
    this.#db.close();
  }

  #run(row: JobRow, handler: JobHandler): Promise<void> {
    const job: Job = { id: row.id, queue: row.queue, name: row.name, data: JSON.parse(row.data) as unknown, attempt: row.attempt };
    return (async () => {
      let failure: string | null = null;
      try {
        await handler(job);
      } catch (error) {
        failure = errorMessage(error);
      }
      try {
        if (failure === null) this.#complete(row);
        else this.#fail(row, failure);
      } catch (error) {
        // The job stays active in the file and is recovered on the next open.
        console.error(`job-queue: could not record the outcome of job ${row.queue}/${row.id}: ${errorMessage(error)}`);
      }
    })();
  }

  #claim(queue: string): JobRow | null {
    const now = Date.now();
    const row = this.#db
      .prepare(`SELECT queue, id, name, data, attempt FROM jobs WHERE queue = ? AND state IN ('waiting', 'delayed') AND run_at <= ? ORDER BY run_at, seq LIMIT 1`)
      .get(queue, now) as JobRow | undefined;
    if (!row) return null;
    this.#db.prepare(`UPDATE jobs SET state = 'active', attempt = attempt + 1 WHERE queue = ? AND id = ?`).run(queue, row.id);
    return { ...row, attempt: row.attempt + 1 };
  }

  #complete(row: JobRow): void {
    if (this.#closedDb()) return;
    this.#db.prepare(`DELETE FROM jobs WHERE queue = ? AND id = ? AND state = 'active'`).run(row.queue, row.id);
  }

  #fail(row: JobRow, message: string): void {
    if (this.#closedDb()) return;
    const job = this.#db
      .prepare(`SELECT max_attempts, backoff_type, backoff_delay FROM jobs WHERE queue = ? AND id = ? AND state = 'active'`)
      .get(row.queue, row.id) as { max_attempts: number; backoff_type: 'fixed' | 'exponential' | null; backoff_delay: number } | undefined;
    if (!job) return;
    const now = Date.now();
    if (row.attempt < job.max_attempts) {
      const backoff = job.backoff_type ? { type: job.backoff_type, delayMs: job.backoff_delay } : undefined;
      this.#db
        .prepare(`UPDATE jobs SET state = 'delayed', run_at = ?, last_error = ? WHERE queue = ? AND id = ?`)
        .run(now + backoffDelayMs(backoff, row.attempt), message, row.queue, row.id);
      return;
    }
    this.#db.prepare(`UPDATE jobs SET state = 'dead', last_error = ?, failed_at = ? WHERE queue = ? AND id = ?`).run(message, now, row.queue, row.id);
    this.#db
      .prepare(
        `DELETE FROM jobs WHERE queue = ? AND state = 'dead' AND id NOT IN
           (SELECT id FROM jobs WHERE queue = ? AND state = 'dead' ORDER BY failed_at DESC, seq DESC LIMIT ?)`,
      )
      .run(row.queue, row.queue, DEAD_JOBS_KEPT);
  }

  /** Enqueues one run per due schedule; runs missed while stopped collapse into one. */
  #materializeSchedules(queue: string): void {
    const now = Date.now();
    const due = this.#db
      .prepare('SELECT schedule_id, every_ms, name, data, next_run_at FROM schedules WHERE queue = ? AND next_run_at <= ?')
      .all(queue, now) as { schedule_id: string; every_ms: number; name: string; data: string; next_run_at: number }[];
    for (const schedule of due) {
      const pending = this.#db
        .prepare(`SELECT 1 FROM jobs WHERE queue = ? AND schedule_id = ? AND state IN ('waiting', 'delayed')`)
        .get(queue, schedule.schedule_id);
      // Like BullMQ's job schedulers: at most one pending run per schedule.
      if (!pending) {
        this.#insert(queue, schedule.name, JSON.parse(schedule.data) as unknown, { jobId: `schedule:${schedule.schedule_id}:${schedule.next_run_at}` }, schedule.schedule_id);
      }
      const periods = Math.floor((now - schedule.next_run_at) / schedule.every_ms) + 1;
      this.#db
        .prepare('UPDATE schedules SET next_run_at = ? WHERE queue = ? AND schedule_id = ?')
        .run(schedule.next_run_at + periods * schedule.every_ms, queue, schedule.schedule_id);
    }
  }

  #nextDueAt(queue: string): number | null {
    const job = this.#db.prepare(`SELECT MIN(run_at) AS at FROM jobs WHERE queue = ? AND state IN ('waiting', 'delayed')`).get(queue) as { at: number | null };
    const schedule = this.#db.prepare('SELECT MIN(next_run_at) AS at FROM schedules WHERE queue = ?').get(queue) as { at: number | null };
    const times = [job.at, schedule.at].filter((at): at is number => at !== null);
    return times.length === 0 ? null : Math.min(...times);
  }

  #wake(queue: string): void {
    for (const worker of this.#workers) if (worker.queue === queue) worker.pump();
  }

  #closedDb(): boolean {
    return !this.#db.isOpen;
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('job queue is closed');
  }
}
