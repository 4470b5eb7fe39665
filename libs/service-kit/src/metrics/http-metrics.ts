/**
 * Every process's Prometheus registry, hung on its Fastify app (`app.metrics`), and the request
 * histogram every route feeds: method, route PATTERN (`/api/logs/:id`, never the raw URL, which can
 * carry ids and the deprecated `?apiKey=`) and status code. Rates come from the histogram's _count.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Registry } from 'prom-client';
import { RequestHistogram } from './request-histogram.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's metrics registry (served by the metrics listener, see metrics-server.ts). */
    metrics: Registry;
  }
}

/** Latency buckets in seconds: ingestion answers in milliseconds, photo uploads and exports take seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** The route label of a request no route matched (404s): one series whatever was asked for. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Gives the app its registry and the request histogram. createHttpApp calls it for every app. */
export function installHttpMetrics(app: FastifyInstance, registry: Registry = new Registry()): Registry {
  app.decorate('metrics', registry);
  const duration = new RequestHistogram({
    name: 'skald_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code: latency in seconds (rate from _count)',
    buckets: LATENCY_BUCKETS,
    registry,
  });
  // Callback style: an async hook costs a promise per request for nothing to await.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const method = request.method;
    const statusCode = reply.statusCode;
    // The route is a PATTERN, so there are as many keys as series in the scrape.
    const series = duration.series(`${method} ${statusCode} ${route}`, () => ({ method, route, status_code: String(statusCode) }));
    duration.observe(series, reply.elapsedTime / 1000);
    done();
  });
  return registry;
}

/**
 * A counter on the app's registry, created on first use and shared after (two route files of a
 * service may count into the same one). On an app built without createHttpApp (a bare Fastify in a
 * test) it counts into a registry nobody reads.
 */
export function metricCounter<L extends string>(
  app: FastifyInstance,
  config: { readonly name: string; readonly help: string; readonly labelNames: readonly L[] },
): Counter<L> {
  const registry = app.hasDecorator('metrics') ? app.metrics : new Registry();
  const existing = registry.getSingleMetric(config.name);
  if (existing instanceof Counter) return existing as Counter<L>;
  return new Counter({ name: config.name, help: config.help, labelNames: config.labelNames, registers: [registry] });
}
