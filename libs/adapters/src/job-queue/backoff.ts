import type { JobOptions } from '@skald/ports';

/** Delay before retry `failedAttempt` (1-based), as the port defines it. */
export function backoffDelayMs(backoff: JobOptions['backoff'], failedAttempt: number): number {
  if (!backoff) return 0;
  return backoff.type === 'fixed' ? backoff.delayMs : backoff.delayMs * 2 ** (failedAttempt - 1);
}

export function assertJobOptions(options: JobOptions | undefined): void {
  if (!options) return;
  const { delayMs, attempts, backoff, jobId } = options;
  if (delayMs !== undefined && (!Number.isFinite(delayMs) || delayMs < 0)) throw new Error(`invalid delayMs: ${delayMs}`);
  if (attempts !== undefined && (!Number.isSafeInteger(attempts) || attempts < 1)) throw new Error(`invalid attempts: ${attempts}`);
  if (backoff !== undefined && (!Number.isFinite(backoff.delayMs) || backoff.delayMs < 0)) throw new Error(`invalid backoff delay: ${backoff.delayMs}`);
  if (jobId !== undefined && (jobId.length === 0 || jobId.length > 512)) throw new Error('jobId must be 1..512 characters');
}

/** Errors thrown by handlers may be anything; store a bounded message, never the whole object. */
export function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 2000 ? `${message.slice(0, 2000)}…` : message;
}
