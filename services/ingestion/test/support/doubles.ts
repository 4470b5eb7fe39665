/**
 * Purpose-built doubles, each a thin wrapper around a REAL adapter (the embedded ones of @skald/testing):
 * a bus that records what the service published and refuses on demand, and counters that fail on
 * demand. Everything else the tests use is the real adapter.
 */
import type { ConsumeResult, Counters, EventBus, ObserveOptions, PublishInput, SubscribeOptions, Subscription } from '@skald/ports';

export class RecordingBus implements EventBus {
  /** Messages of the recorded topic the inner bus accepted, in publish order. */
  readonly published: PublishInput[] = [];
  /** publish() calls that carried at least one message of the recorded topic (failed ones included). */
  publishCalls = 0;
  /** While true, every publish() throws and nothing reaches the inner bus. */
  failPublish = false;
  private readonly inner: EventBus;
  private readonly topic: string | undefined;

  /** `topic`: record only that topic's messages (e.g. the service's output, not the identity facts a test seeds). */
  constructor(inner: EventBus, topic?: string) {
    this.inner = inner;
    this.topic = topic;
  }

  ensureTopics(topics: readonly string[]): Promise<void> {
    return this.inner.ensureTopics(topics);
  }

  async publish(messages: readonly PublishInput[]): Promise<void> {
    const recorded = this.topic === undefined ? messages : messages.filter((message) => message.topic === this.topic);
    if (recorded.length > 0) this.publishCalls += 1;
    if (this.failPublish) throw new Error('bus unavailable');
    await this.inner.publish(messages);
    this.published.push(...recorded);
  }

  subscribe(options: SubscribeOptions): Promise<Subscription> {
    return this.inner.subscribe(options);
  }

  observe(options: ObserveOptions): Promise<Subscription> {
    return this.inner.observe(options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

export class FailingCounters implements Counters {
  /** While set, consume() rejects with it (a shared counter store that is down). */
  failConsume: Error | null = null;
  private readonly inner: Counters;

  constructor(inner: Counters) {
    this.inner = inner;
  }

  consume(key: string, points: number, limit: number, windowMs: number): Promise<ConsumeResult> {
    if (this.failConsume !== null) return Promise.reject(this.failConsume);
    return this.inner.consume(key, points, limit, windowMs);
  }
  release(key: string, points: number): Promise<number> {
    return this.inner.release(key, points);
  }
  peek(key: string, limit: number, windowMs: number): Promise<ConsumeResult> {
    return this.inner.peek(key, limit, windowMs);
  }
  increment(key: string, n: number, ttlMs: number): Promise<number> {
    return this.inner.increment(key, n, ttlMs);
  }
  get(key: string): Promise<number> {
    return this.inner.get(key);
  }
  reset(key: string): Promise<void> {
    return this.inner.reset(key);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
