/**
 * Redis counters shared by every instance. Each operation is one Lua script so the
 * read-check-write of a fixed window is atomic: parallel consumes can never admit more
 * than the limit, whichever instance they hit.
 */
import { Redis } from 'ioredis';
import type { ConsumeResult, Counters } from '@skald/ports';
import { assertCounterArgs, assertPoints } from './memory-counters.ts';

// The server's clock in ms. A window's end is answered as this plus the key's PTTL, both read in the same
// script: every call about one window then answers the same end, however long the reply takes to reach a
// busy client (its own clock read after the reply drifted by the client's delay, 63 ms seen under load).
const NOW_MS = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
`;

// KEYS[1] window key; ARGV points, limit, windowMs. Returns {allowed, used, window end (ms)}.
// A key without a TTL (PTTL -1, e.g. left by a crash between SET and PEXPIRE in older
// code) is treated as an expired window rather than a counter that never resets.
const CONSUME_SCRIPT = `${NOW_MS}
local points = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  used = 0
  ttl = window
end
if used + points > limit then
  return {0, used, now + ttl}
end
if used == 0 then
  redis.call('SET', KEYS[1], points, 'PX', ttl)
else
  redis.call('INCRBY', KEYS[1], points)
end
return {1, used + points, now + ttl}
`;

// KEYS[1] counter key; ARGV n, ttlMs. The TTL is set only by the first increment.
const INCREMENT_SCRIPT = `
local value = redis.call('INCRBY', KEYS[1], tonumber(ARGV[1]))
if redis.call('PTTL', KEYS[1]) < 0 then
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
end
return value
`;

// KEYS[1] window key; ARGV points. Only a live window (with a TTL) is decremented, never below 0, and
// its TTL is kept: giving points back must not open or extend a window.
const RELEASE_SCRIPT = `
if redis.call('PTTL', KEYS[1]) < 0 then
  return 0
end
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local back = math.min(used, tonumber(ARGV[1]))
if back > 0 then
  return redis.call('DECRBY', KEYS[1], back)
end
return used
`;

// KEYS[1] window key; ARGV windowMs. Returns {used, window end (ms)}: a window not open yet would end windowMs from now.
const PEEK_SCRIPT = `${NOW_MS}
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  return {0, now + tonumber(ARGV[1])}
end
return {used, now + ttl}
`;

export interface RedisCountersOptions {
  readonly url: string;
  /** Prepended to every key; lets parallel test runs and environments share one Redis. */
  readonly prefix?: string;
}

export class RedisCounters implements Counters {
  readonly #redis: Redis;

  constructor(options: RedisCountersOptions) {
    // Fail fast while Redis is unreachable (one retry, then the command errors) so callers can
    // take their documented outage path (fail closed with 503, or open with an alert) instead of hanging.
    this.#redis = new Redis(options.url, { keyPrefix: options.prefix ?? 'skald:counters:', maxRetriesPerRequest: 1 });
    this.#redis.on('error', () => {
      // Connection errors surface as rejected commands; without a listener ioredis logs each retry.
    });
  }

  async consume(key: string, points: number, limit: number, windowMs: number): Promise<ConsumeResult> {
    assertCounterArgs(points, windowMs);
    const reply = await this.#redis.eval(CONSUME_SCRIPT, 1, key, points, limit, windowMs);
    const [allowed, used, resetAt] = numberTriple(reply);
    return { allowed: allowed === 1, used, limit, resetAt };
  }

  async release(key: string, points: number): Promise<number> {
    assertPoints(points);
    return Number(await this.#redis.eval(RELEASE_SCRIPT, 1, key, points));
  }

  async peek(key: string, limit: number, windowMs: number): Promise<ConsumeResult> {
    const reply = await this.#redis.eval(PEEK_SCRIPT, 1, key, windowMs);
    const [used, resetAt] = numberList(reply, 2);
    return { allowed: used! < limit, used: used!, limit, resetAt: resetAt! };
  }

  async increment(key: string, n: number, ttlMs: number): Promise<number> {
    assertCounterArgs(n, ttlMs);
    const reply = await this.#redis.eval(INCREMENT_SCRIPT, 1, key, n, ttlMs);
    return Number(reply);
  }

  async get(key: string): Promise<number> {
    const value = await this.#redis.get(key);
    return value === null ? 0 : Number(value);
  }

  async reset(key: string): Promise<void> {
    await this.#redis.del(key);
  }

  async close(): Promise<void> {
    await this.#redis.quit();
  }
}

function numberList(reply: unknown, length: number): number[] {
  if (!Array.isArray(reply) || reply.length !== length) throw new Error(`unexpected Redis reply: ${JSON.stringify(reply)}`);
  return reply.map((item) => Number(item));
}

function numberTriple(reply: unknown): [number, number, number] {
  const [a, b, c] = numberList(reply, 3);
  return [a!, b!, c!];
}
