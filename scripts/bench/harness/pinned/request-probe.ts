/**
 * Where a single-log POST's time goes inside the all-in-one (retention.bench.ts prints it beside the client's
 * latencies): each request's span is cut at the points the ingest path crosses, on this process's clock.
 * - arrival: Node's HTTP server parsed its headers (the 'request' event);
 * - handler: Fastify called the route's handler (the body read, parsed and validated, the key looked up);
 * - quota: the ingestion handler consumed its quota;
 * - publish: the coalescing publisher's bus.publish that carried it started and ended (the journal's commit);
 * - finish: the answer was handed to the socket ('finish').
 * Fastify's diagnostics channel around the handler (`tracing:fastify.request.handler`) gives the handler's start
 * and runs it in an AsyncLocalStorage context of the request, which ties the quota call to it; the publish
 * carrying it is the first to start after its quota (the publisher runs one publish at a time, in order).
 * What the client measured beyond finish - arrival is time before the server read the request (its loop busy
 * elsewhere, or a new connection to accept).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { tracingChannel } from 'node:diagnostics_channel';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Counters, EventBus, PublishInput } from '@skald/ports';
import { percentile } from '../samples.ts';

interface Timed {
  readonly arrival: number;
  handler: number;
  quota: number;
  finish: number;
}

interface Span {
  readonly start: number;
  end: number;
}

/** Percentiles of one stage over the probed requests, in milliseconds. */
export interface StageFigures {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export interface ProbeSplit {
  readonly requests: number;
  /** Arrival to the handler: the body read and parsed, auth, validation. */
  readonly toHandler: StageFigures;
  /** Handler to quota. */
  readonly toQuota: StageFigures;
  /** Quota to the start of the publish that carried it: the publisher's gathering turns and the publish before. */
  readonly toPublish: StageFigures;
  /** The publish that carried it (pacing and the journal's commit). */
  readonly publish: StageFigures;
  /** Publish end to finish: the answer serialised and written. */
  readonly toFinish: StageFigures;
  /** Arrival to finish. */
  readonly server: StageFigures;
  /** Every bus.publish of the window (not only the probed requests'). */
  readonly publishes: StageFigures & { readonly n: number };
  /** The log store's insertBatch calls of the window (the logs consumer's writes, off the request's path). */
  readonly storeWrites: StageFigures & { readonly n: number };
}

/** Wall-clock time with sub-millisecond precision, comparable with the client's (steady-poster.ts). */
const epochMs = (): number => performance.timeOrigin + performance.now();

const figures = (values: number[]): StageFigures => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const round = (v: number): number => Number(v.toFixed(1));
  if (sorted.length === 0) return { p50: Number.NaN, p99: Number.NaN, max: Number.NaN };
  return { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted[sorted.length - 1]!) };
};

export class RequestProbe {
  readonly #context = new AsyncLocalStorage<Timed | undefined>();
  readonly #byRequest = new WeakMap<IncomingMessage, Timed>();
  readonly #requests: Timed[] = [];
  readonly #publishes: Span[] = [];
  readonly #storeWrites: Span[] = [];
  #on = false;

  /** Listens to the server's requests, and to Fastify's handler channel. */
  attach(server: Server): void {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (!this.#on || req.method !== 'POST' || req.url !== '/api/logs') return;
      const timed: Timed = { arrival: epochMs(), handler: Number.NaN, quota: Number.NaN, finish: Number.NaN };
      this.#requests.push(timed);
      this.#byRequest.set(req, timed);
      res.once('finish', () => (timed.finish = epochMs()));
    });
    const handler = tracingChannel<{ request: { raw: IncomingMessage } }, Timed | undefined>('fastify.request.handler');
    const timedOf = (message: { request: { raw: IncomingMessage } }): Timed | undefined => this.#byRequest.get(message.request.raw);
    handler.start.bindStore(this.#context, timedOf);
    handler.subscribe({
      start: (message) => {
        const timed = timedOf(message);
        if (timed !== undefined) timed.handler = epochMs();
      },
      end: () => undefined,
      asyncStart: () => undefined,
      asyncEnd: () => undefined,
      error: () => undefined,
    });
  }

  /** The counters, the quota's consume marking the request it runs for. */
  counters(inner: Counters): Counters {
    return new Proxy(inner, {
      get: (target, property) => {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        if (property !== 'consume') return value.bind(target);
        return (...args: Parameters<Counters['consume']>) => {
          const timed = this.#context.getStore();
          if (timed !== undefined && Number.isNaN(timed.quota)) timed.quota = epochMs();
          return target.consume(...args);
        };
      },
    });
  }

  /** The bus, each publish's span recorded. */
  bus(inner: EventBus): EventBus {
    return new Proxy(inner, {
      get: (target, property) => {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        if (property !== 'publish') return value.bind(target);
        return async (messages: readonly PublishInput[]) => {
          const span: Span = { start: epochMs(), end: Number.NaN };
          if (this.#on) this.#publishes.push(span);
          try {
            await target.publish(messages);
          } finally {
            span.end = epochMs();
          }
        };
      },
    });
  }

  /** Times a log store write (insertBatch) while recording. */
  async storeWrite<R>(write: () => Promise<R>): Promise<R> {
    if (!this.#on) return write();
    const span: Span = { start: epochMs(), end: Number.NaN };
    this.#storeWrites.push(span);
    try {
      return await write();
    } finally {
      span.end = epochMs();
    }
  }

  start(): void {
    this.#requests.length = 0;
    this.#publishes.length = 0;
    this.#storeWrites.length = 0;
    this.#on = true;
  }

  /** Stops recording; the split of the requests that arrived within [from, to] (epoch ms). */
  stop(from: number, to: number): ProbeSplit {
    this.#on = false;
    const requests = this.#requests.filter((r) => r.arrival >= from && r.arrival <= to && Number.isFinite(r.finish));
    const publishes = this.#publishes.filter((p) => Number.isFinite(p.end));
    const carrying = (quota: number): Span | undefined => publishes.find((p) => p.start >= quota);
    const toHandler: number[] = [];
    const toQuota: number[] = [];
    const toPublish: number[] = [];
    const publish: number[] = [];
    const toFinish: number[] = [];
    for (const r of requests) {
      toHandler.push(r.handler - r.arrival);
      toQuota.push(r.quota - r.handler);
      const span = Number.isNaN(r.quota) ? undefined : carrying(r.quota);
      if (span === undefined) continue;
      toPublish.push(span.start - r.quota);
      publish.push(span.end - span.start);
      toFinish.push(r.finish - span.end);
    }
    const within = (spans: readonly Span[]): number[] => spans.filter((p) => Number.isFinite(p.end) && p.start >= from && p.start <= to).map((p) => p.end - p.start);
    const windowed = within(publishes);
    const writes = within(this.#storeWrites);
    return {
      requests: requests.length,
      toHandler: figures(toHandler),
      toQuota: figures(toQuota),
      toPublish: figures(toPublish),
      publish: figures(publish),
      toFinish: figures(toFinish),
      server: figures(requests.map((r) => r.finish - r.arrival)),
      publishes: { n: windowed.length, ...figures(windowed) },
      storeWrites: { n: writes.length, ...figures(writes) },
    };
  }
}

/** One line: each stage's p50 / p99 / max. */
export function showSplit(split: ProbeSplit): string {
  const stage = (name: string, f: StageFigures): string => `${name} ${f.p50} / ${f.p99} / ${f.max}`;
  return [
    `server side (p50 / p99 / max ms, ${split.requests} requests): ${stage('arrival to handler', split.toHandler)}`,
    stage('handler to quota', split.toQuota),
    stage('quota to publish', split.toPublish),
    stage('publish', split.publish),
    stage('publish to finish', split.toFinish),
    stage('arrival to finish', split.server),
    `${split.publishes.n} publishes ${split.publishes.p50} / ${split.publishes.p99} / ${split.publishes.max}`,
    `${split.storeWrites.n} store writes ${split.storeWrites.p50} / ${split.storeWrites.p99} / ${split.storeWrites.max}`,
  ].join('; ');
}
