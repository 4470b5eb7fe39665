/**
 * Whether a Redis answers PING at `url`: the integration tests that need a real Redis ask this once and
 * skip with a printed reason when it is down (never a silent pass).
 */
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

export async function redisReachable(url: string = TEST_REDIS_URL): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 1_000, retryStrategy: () => null });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}
