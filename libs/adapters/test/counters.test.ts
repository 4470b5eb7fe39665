import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { countersContract } from '@skald/ports/contract/counters.contract.ts';
import { createCounters } from '../src/counters/index.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

countersContract('memory', async () => {
  const adapter = await createCounters({ kind: 'memory' });
  return { adapter, cleanup: () => adapter.close() };
});

countersContract('redis', async () => {
  const prefix = `test:counters:${randomBytes(6).toString('hex')}:`;
  const adapter = await createCounters({ kind: 'redis', url: REDIS_URL, prefix });
  return {
    adapter,
    cleanup: async () => {
      await adapter.close();
      await deleteByPrefix(prefix);
    },
  };
});

/** Removes whatever the run left behind so the shared Redis does not fill with test keys. */
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

describe('redis counters during an outage', () => {
  it('reject quickly instead of hanging when Redis is unreachable', async () => {
    // Port 1 on loopback: nothing listens, connections are refused.
    const adapter = await createCounters({ kind: 'redis', url: 'redis://127.0.0.1:1', prefix: 'outage:' });
    try {
      const started = Date.now();
      await expect(adapter.consume('k', 1, 10, 1000)).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await adapter.close().catch(() => undefined);
    }
  });
});
