import type { JobQueue } from '@skald/ports';
import { BullmqJobQueue } from './bullmq-job-queue.ts';
import { EmbeddedJobQueue } from './embedded-job-queue.ts';

export type JobQueueConfig = { kind: 'embedded'; file: string } | { kind: 'bullmq'; url: string; prefix?: string };

export async function createJobQueue(config: JobQueueConfig): Promise<JobQueue> {
  switch (config.kind) {
    case 'embedded':
      return new EmbeddedJobQueue(config.file);
    case 'bullmq':
      return new BullmqJobQueue({ url: config.url, ...(config.prefix === undefined ? {} : { prefix: config.prefix }) });
  }
}

export { BullmqJobQueue, EmbeddedJobQueue };
