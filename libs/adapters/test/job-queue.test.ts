import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { jobQueueContract } from '@skald/ports/contract/job-queue.contract.ts';
import { createJobQueue } from '../src/job-queue/index.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

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

async function deleteByPrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
