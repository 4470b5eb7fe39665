/**
 * Job queue factory. BullMQ (and ioredis) is imported only when chosen, so the embedded processes
 * never load it (idle memory).
 */
import { resolve } from 'node:path';
import type { DeadJob, JobHandler, JobOptions, JobQueue, QueueDepth, Worker } from '@skald/ports';
import type { BullmqJobQueueOptions } from './bullmq-job-queue.ts';
import { EmbeddedJobQueue } from './embedded-job-queue.ts';

export type JobQueueConfig =
  | { kind: 'embedded'; file: string }
  | ({ kind: 'bullmq' } & BullmqJobQueueOptions);

export async function createJobQueue(config: JobQueueConfig): Promise<JobQueue> {
  switch (config.kind) {
    case 'embedded':
      return openSharedEmbedded(config.file);
    case 'bullmq': {
      const { kind: _kind, ...options } = config;
      const { BullmqJobQueue } = await import('./bullmq-job-queue.ts');
      return new BullmqJobQueue(options);
    }
  }
}

/*
 * Several services in one process (the all-in-one launcher) may each ask for the embedded
 * queue on the same file. Opening it twice would be wrong: a second open puts the first
 * one's active jobs back to waiting (crash recovery) and adds would not wake the other's
 * workers. So each file is opened once per process and handed out reference-counted.
 */
const openEmbedded = new Map<string, { queue: EmbeddedJobQueue; refs: number }>();

function openSharedEmbedded(file: string): JobQueue {
  const path = resolve(file);
  let entry = openEmbedded.get(path);
  if (!entry) {
    entry = { queue: new EmbeddedJobQueue(path), refs: 0 };
    openEmbedded.set(path, entry);
  }
  entry.refs++;
  const shared = entry;
  let closed = false;
  const { queue } = shared;
  const handleWorkers = new Set<Worker>();
  return {
    add: (q: string, name: string, data: unknown, options?: JobOptions) => queue.add(q, name, data, options),
    schedule: (q: string, id: string, everyMs: number, name: string, data: unknown) => queue.schedule(q, id, everyMs, name, data),
    unschedule: (q: string, id: string) => queue.unschedule(q, id),
    process: async (q: string, handler: JobHandler, options?: { readonly concurrency?: number }) => {
      const worker = await queue.process(q, handler, options);
      handleWorkers.add(worker);
      return {
        close: async () => {
          handleWorkers.delete(worker);
          await worker.close();
        },
      };
    },
    deadJobs: (q: string): Promise<DeadJob[]> => queue.deadJobs(q),
    depths: (): Promise<readonly QueueDepth[]> => queue.depths(),
    retryDead: (q: string, jobId: string) => queue.retryDead(q, jobId),
    close: async () => {
      if (closed) return;
      closed = true;
      // This handle's workers stop (waiting for their jobs); the file closes with the last handle.
      await Promise.all([...handleWorkers].map((worker) => worker.close()));
      if (--shared.refs === 0) {
        openEmbedded.delete(path);
        await queue.close();
      }
    },
  };
}

export { EmbeddedJobQueue };
// Type only: a value re-export would load BullMQ for every importer of @skald/adapters.
export type { BullmqJobQueue, BullmqJobQueueOptions } from './bullmq-job-queue.ts';
