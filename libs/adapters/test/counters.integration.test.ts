import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { countersContract } from '@skald/ports/contract/counters.contract.ts';
import { createCounters } from '../src/counters/index.ts';
import { deleteByPrefix, REDIS_URL } from './redis-test-keys.ts';

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
