/**
 * Retry-in-place delivery shared by every adapter: the handler runs until it succeeds, throws a
 * PoisonMessageError, or uses up maxAttempts; the caller then acks or dead-letters the message.
 */
import { PoisonMessageError } from '@skald/ports';
import type { BatchHandler, BusMessage, DeadLetterCount, MessageHandler } from '@skald/ports';

export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_RETRY_DELAY_MS = 200;
/** Dead-letter reasons are stored and shown; cap them so a huge error message cannot bloat the DLQ. */
const MAX_REASON_LENGTH = 1000;

export type DeliveryOutcome =
  | { readonly kind: 'done' }
  | { readonly kind: 'dead'; readonly reason: string }
  /** Stopped while waiting to retry: neither ack nor dead-letter, the message will be redelivered. */
  | { readonly kind: 'aborted' };

export interface DeliveryOptions {
  readonly maxAttempts: number;
  readonly retryDelayMs: number;
  /** Attempt number of the first try here (greater than 1 when the bus already delivered it before). */
  readonly firstAttempt: number;
  readonly signal: AbortSignal;
}

export function describeFailure(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : `non-error thrown: ${String(error)}`;
  return text.length > MAX_REASON_LENGTH ? `${text.slice(0, MAX_REASON_LENGTH)}…` : text;
}

export async function deliverWithRetries(
  message: Omit<BusMessage, 'attempt'>,
  handler: MessageHandler,
  options: DeliveryOptions,
): Promise<DeliveryOutcome> {
  // A message already delivered maxAttempts times (e.g. it crashed consumers) gets one last try.
  for (let attempt = options.firstAttempt; ; attempt++) {
    try {
      await handler({ ...message, attempt });
      return { kind: 'done' };
    } catch (error) {
      if (error instanceof PoisonMessageError) return { kind: 'dead', reason: describeFailure(error) };
      if (attempt >= options.maxAttempts) {
        return { kind: 'dead', reason: `failed ${attempt} attempts; last: ${describeFailure(error)}` };
      }
    }
    if (!(await sleep(options.retryDelayMs, options.signal))) return { kind: 'aborted' };
  }
}

type FirstDelivery = Omit<BusMessage, 'attempt'>;

/** What a read's messages became when offered as a batch (offerAsBatch). */
export type BatchOffer =
  | { readonly taken: true }
  /** Not taken: deliver them one by one; messageAt decodes the message at an index (once, even if the batch try did). */
  | { readonly taken: false; readonly messageAt: (index: number) => FirstDelivery };

/**
 * Offers the messages one read brought to a subscription's batch handler (SubscribeOptions.batchHandler).
 * Taken: the handler resolved for them all and the caller commits them together. Not taken (no batch
 * handler, a single message, or the batch handler threw): the caller delivers them one by one through
 * deliverWithRetries, which retries, dead-letters and reports whatever made it throw, message by message.
 * The raw records are decoded up front only for a batch handler; without one each is decoded when its
 * turn comes, so a subscription without one never holds a read's worth of parsed payloads.
 */
export async function offerAsBatch<Raw>(
  raws: readonly Raw[],
  decode: (raw: Raw) => FirstDelivery,
  batchHandler: BatchHandler | undefined,
): Promise<BatchOffer> {
  if (batchHandler === undefined || raws.length < 2) return { taken: false, messageAt: (index) => decode(raws[index]!) };
  const decoded = raws.map(decode);
  try {
    await batchHandler(decoded.map((message) => ({ ...message, attempt: 1 })));
    return { taken: true };
  } catch {
    return { taken: false, messageAt: (index) => decoded[index]! };
  }
}

/** Resolves true after ms, or false as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function deadLetterHeaders(
  headers: Readonly<Record<string, string>>,
  originalTopic: string,
  reason: string,
  group: string,
): Record<string, string> {
  return { ...headers, 'x-dead-letter-reason': reason, 'x-original-topic': originalTopic, 'x-dead-letter-group': group };
}

export function resolveSubscribeDefaults(options: { maxAttempts?: number; retryDelayMs?: number }): {
  maxAttempts: number;
  retryDelayMs: number;
} {
  return {
    maxAttempts: Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS),
    retryDelayMs: Math.max(0, options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS),
  };
}

/** Every adapter's count of the dead letters its consumers produced (EventBus.deadLettered). */
export class DeadLetterTally {
  readonly #counts = new Map<string, DeadLetterCount>();

  count(group: string, topic: string): void {
    const key = `${group}\n${topic}`;
    this.#counts.set(key, { group, topic, count: (this.#counts.get(key)?.count ?? 0) + 1 });
  }

  snapshot(): readonly DeadLetterCount[] {
    return [...this.#counts.values()];
  }
}
