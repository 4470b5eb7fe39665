/**
 * What every adapter's observer (EventBus.observe) does with one message: hand it over once; a failure
 * goes to onError and is not retried (an observer is a live view, not a consumer group).
 */
import type { BusMessage, ObserveOptions } from '@skald/ports';
import { describeFailure } from './delivery.ts';

export async function deliverToObserver(message: Omit<BusMessage, 'attempt'>, options: ObserveOptions): Promise<void> {
  const delivered: BusMessage = { ...message, attempt: 1 };
  try {
    await options.handler(delivered);
  } catch (error) {
    if (options.onError) options.onError(error, delivered);
    else console.warn(`event bus: an observer of ${message.topic} failed on message ${message.id}: ${describeFailure(error)}`);
  }
}
