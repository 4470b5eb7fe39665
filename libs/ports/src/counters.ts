/** Counters and rate limits shared by all instances. Adapters: Redis and memory. */

export interface ConsumeResult {
  readonly allowed: boolean;
  /** Points used in the current window after this call (unchanged when refused). */
  readonly used: number;
  readonly limit: number;
  /** Epoch ms at which the current window ends. */
  readonly resetAt: number;
}

export interface Counters {
  /** Fixed window: adds `points` only if used + points <= limit (all or nothing, atomic). */
  consume(key: string, points: number, limit: number, windowMs: number): Promise<ConsumeResult>;
  /**
   * Gives back points a consume took when the work they paid for was then refused (e.g. the store was
   * down): never below 0, and nothing when the window has already ended (it does not open one).
   * Returns the points used in the window afterwards.
   */
  release(key: string, points: number): Promise<number>;
  /** Reads the window without consuming. */
  peek(key: string, limit: number, windowMs: number): Promise<ConsumeResult>;
  /** Adds n to a plain counter that expires ttlMs after its first increment; returns the new value. */
  increment(key: string, n: number, ttlMs: number): Promise<number>;
  get(key: string): Promise<number>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}
