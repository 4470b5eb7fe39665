/** The launcher refuses an invalid configuration: exit code 1 and a message naming the variable. */
import { describe, expect, it } from 'vitest';
import { spawnSkald } from './support/processes.ts';

// Refused before anything listens; port 0 all the same, should one ever get that far.
describe('launcher configuration errors', () => {
  it('exits 1 printing which variable is invalid', async () => {
    const proc = spawnSkald('bad-config', 0, { EVENT_BUS: 'rabbitmq', DATA_DIR: '/tmp/skald-never-created' });
    const { code } = await proc.exited;
    expect(code).toBe(1);
    expect(proc.output()).toContain('Invalid configuration: EVENT_BUS must be one of memory, redis, kafka (got "rabbitmq")');
  });

  it('exits 1 when a required connection setting is missing', async () => {
    const proc = spawnSkald('missing-redis', 0, { COUNTERS: 'redis', DATA_DIR: '/tmp/skald-never-created' });
    const { code } = await proc.exited;
    expect(code).toBe(1);
    expect(proc.output()).toContain('Invalid configuration: REDIS_URL is required when COUNTERS=redis');
  });
});
