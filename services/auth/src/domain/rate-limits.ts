/**
 * Attempt limits for login, 2FA and password reset, per account and per IP, on the Counters port
 * (memory in all-in-one, Redis when distributed, so all instances share the windows).
 * Refusals are 429 with Retry-After in seconds.
 */
import type { Counters } from '@skald/ports';
import { HttpError } from '@skald/service-kit';

export interface LimitRule {
  readonly limit: number;
  readonly windowMs: number;
}

export interface AuthRateLimits {
  /** Failed logins per account. */
  readonly loginPerAccount: LimitRule;
  /** Login attempts per client IP. */
  readonly loginPerIp: LimitRule;
  /** Wrong 2FA codes per account (login step, verify, disable). */
  readonly twoFactorPerAccount: LimitRule;
  /** Forgot-password requests per e-mail address. */
  readonly forgotPerAccount: LimitRule;
  /** Forgot and reset requests per client IP. */
  readonly resetPerIp: LimitRule;
}

const MINUTE = 60_000;

export const DEFAULT_RATE_LIMITS: AuthRateLimits = {
  loginPerAccount: { limit: 10, windowMs: 15 * MINUTE },
  loginPerIp: { limit: 50, windowMs: 15 * MINUTE },
  twoFactorPerAccount: { limit: 5, windowMs: 15 * MINUTE },
  forgotPerAccount: { limit: 3, windowMs: 60 * MINUTE },
  resetPerIp: { limit: 20, windowMs: 60 * MINUTE },
};

export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please try again later.';

function refuse(resetAt: number): never {
  const seconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
  throw new HttpError(429, TOO_MANY_ATTEMPTS, { headers: { 'retry-after': String(seconds) } });
}

export interface AttemptLimiter {
  /** Counts one attempt; throws 429 when the window is used up. */
  consume(key: string, rule: LimitRule): Promise<void>;
  /** Throws 429 when the window is already used up, without counting (failures are counted with consume). */
  assertOpen(key: string, rule: LimitRule): Promise<void>;
  clear(key: string): Promise<void>;
}

export function createAttemptLimiter(counters: Counters, prefix = 'auth:rl:'): AttemptLimiter {
  return {
    async consume(key, rule) {
      const result = await counters.consume(prefix + key, 1, rule.limit, rule.windowMs);
      if (!result.allowed) refuse(result.resetAt);
    },
    async assertOpen(key, rule) {
      const result = await counters.peek(prefix + key, rule.limit, rule.windowMs);
      if (result.used >= rule.limit) refuse(result.resetAt);
    },
    async clear(key) {
      await counters.reset(prefix + key);
    },
  };
}
