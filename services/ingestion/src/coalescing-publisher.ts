/**
 * Groups the bus publishes of concurrent requests into one `bus.publish` call, so the cost of a durable
 * write (an fsync, a Kafka round trip) is shared by every request that arrived while the previous write
 * was in flight. No timer is involved: an idle publisher writes at once, a busy one batches naturally.
 *
 * Each caller's promise resolves only after the call that carried its messages resolved, i.e. once
 * the bus has durably accepted them; if that call fails, every caller in it gets the error.
 */
import type { EventBus, PublishInput } from '@skald/ports';

interface Waiter {
  readonly messages: readonly PublishInput[];
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export class CoalescingPublisher {
  private readonly bus: EventBus;
  private readonly maxMessagesPerCall: number;
  private queue: Waiter[] = [];
  private running: Promise<void> | null = null;

  constructor(bus: EventBus, maxMessagesPerCall = 64) {
    this.bus = bus;
    this.maxMessagesPerCall = maxMessagesPerCall;
  }

  publish(messages: readonly PublishInput[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ messages, resolve, reject });
      this.running ??= this.run();
    });
  }

  /** Resolves when everything queued so far has been written (or failed). */
  async drain(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  private async run(): Promise<void> {
    // Let the other requests of this tick enqueue first.
    await Promise.resolve();
    try {
      while (this.queue.length > 0) {
        const group: Waiter[] = [];
        const messages: PublishInput[] = [];
        // A caller's messages are never split across calls, so its outcome is one outcome.
        while (this.queue.length > 0) {
          const next = this.queue[0]!;
          if (group.length > 0 && messages.length + next.messages.length > this.maxMessagesPerCall) break;
          this.queue.shift();
          group.push(next);
          messages.push(...next.messages);
        }
        try {
          await this.bus.publish(messages);
          for (const waiter of group) waiter.resolve();
        } catch (error) {
          for (const waiter of group) waiter.reject(error);
        }
      }
    } finally {
      this.running = null;
    }
  }
}
