// Prometheus metrics of the kit: request series per route pattern (never the raw URL, which may carry
// ids or a key), counters services add, adapter gauges read at scrape time (a failing or hanging source
// costs its gauge, not the scrape) and the listener on its own port.
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { Counter, Histogram, Registry } from 'prom-client';
import { RequestHistogram } from '../src/metrics/request-histogram.ts';
import { createHttpApp, metricCounter, registerAdapterMetrics, startMetricsServer, UNMATCHED_ROUTE } from '../src/index.ts';
import type { MetricsServer } from '../src/index.ts';

const silentLog = { lines: [] as string[], error(_o: object, m: string) { this.lines.push(m); }, info() { /* quiet */ } };

describe('the request histogram', () => {
  it('scrapes byte for byte as prom-client\'s Histogram fed the same observations, in text and JSON', async () => {
    const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
    const theirs = new Registry();
    const ours = new Registry();
    const reference = new Histogram({ name: 'skald_test_seconds', help: 'test "help" \\ here', labelNames: ['method', 'route', 'status_code'], buckets, registers: [theirs] });
    const histogram = new RequestHistogram({ name: 'skald_test_seconds', help: 'test "help" \\ here', buckets, registry: ours });
    const observations: [string, string, number, number][] = [
      ['POST', '/logs', 201, 0.0004], ['POST', '/logs', 201, 0.005], ['POST', '/logs', 201, 0.0051], ['GET', '/servers/:id', 200, 31],
      ['GET', '/a "quoted"\\path\nnext', 404, 2.5], ['POST', '/logs', 429, 0.75], ['POST', '/logs', 201, 1e-9],
    ];
    for (const [method, route, status, seconds] of observations) {
      reference.observe({ method, route, status_code: String(status) }, seconds);
      const series = histogram.series(`${method} ${status} ${route}`, () => ({ method, route, status_code: String(status) }));
      histogram.observe(series, seconds);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('skald_test_seconds_count{method="POST",route="/logs",status_code="201"} 4');
    // As a JSON scrape serializes them (prom-client's values carry an undefined exemplar).
    const asJson = async (registry: Registry) => JSON.parse(JSON.stringify(await registry.getMetricsAsJSON())) as unknown;
    expect(await asJson(ours)).toEqual(await asJson(theirs));
    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});

describe('request metrics on every app', () => {
  it('labels requests with the route pattern and status, never the raw path or query', async () => {
    const app = createHttpApp({ logLevel: 'silent' });
    app.get('/servers/:serverId/logs', async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/servers/srv-secret-42/logs?apiKey=sk_live_abcdef' });
    await app.inject({ method: 'GET', url: '/servers/srv-other/logs' });
    await app.inject({ method: 'GET', url: '/no/such/place-with-id-77' });
    const text = await app.metrics.metrics();
    expect(text).toContain('skald_http_request_duration_seconds_count{method="GET",route="/servers/:serverId/logs",status_code="200"} 2');
    expect(text).toContain(`skald_http_request_duration_seconds_count{method="GET",route="${UNMATCHED_ROUTE}",status_code="404"} 1`);
    for (const leaked of ['srv-secret-42', 'sk_live_abcdef', 'place-with-id-77', 'srv-other']) expect(text).not.toContain(leaked);
    await app.close();
  });

  it('gives services one counter per name, and a harmless one on an app built without the kit', async () => {
    const app = createHttpApp({ logLevel: 'silent' });
    const first = metricCounter(app, { name: 'skald_test_things_total', help: 'things', labelNames: ['kind'] });
    const again = metricCounter(app, { name: 'skald_test_things_total', help: 'things', labelNames: ['kind'] });
    expect(again).toBe(first);
    first.inc({ kind: 'a' }, 3);
    expect(await app.metrics.metrics()).toContain('skald_test_things_total{kind="a"} 3');
    await app.close();

    const bare = Fastify();
    expect(() => metricCounter(bare, { name: 'skald_test_things_total', help: 'things', labelNames: ['kind'] }).inc({ kind: 'b' })).not.toThrow();
    await bare.close();
  });
});

describe('adapter gauges', () => {
  it('reads consumer lag and queue depths at scrape time', async () => {
    const registry = new Registry();
    let lag = 5;
    registerAdapterMetrics(registry, {
      bus: {
        consumerLag: async () => [{ group: 'logs-store', topic: 'skald.logs.ingested.v1', lag }],
        deadLettered: () => [{ group: 'logs-store', topic: 'skald.logs.ingested.v1', count: 2 }],
      },
      jobs: { depths: async () => [{ queue: 'retention', waiting: 2, delayed: 1, active: 0, dead: 4 }] },
    });
    const text = await registry.metrics();
    expect(text).toContain('skald_bus_consumer_lag{group="logs-store",topic="skald.logs.ingested.v1"} 5');
    expect(text).toContain('skald_job_queue_jobs{queue="retention",state="waiting"} 2');
    expect(text).toContain('skald_job_queue_jobs{queue="retention",state="dead"} 4');
    expect(text).toContain('skald_bus_dead_letters_total{group="logs-store",topic="skald.logs.ingested.v1"} 2');
    lag = 0;
    expect(await registry.metrics()).toContain('skald_bus_consumer_lag{group="logs-store",topic="skald.logs.ingested.v1"} 0');
  });

  it('answers the scrape when a source fails, counting the failure', async () => {
    const registry = new Registry();
    registerAdapterMetrics(registry, {
      bus: { consumerLag: async () => Promise.reject(new Error('broker away')) },
      jobs: { depths: async () => [{ queue: 'q', waiting: 1, delayed: 0, active: 0, dead: 0 }] },
    });
    const first = await registry.metrics();
    expect(first).not.toMatch(/skald_bus_consumer_lag\{/);
    expect(first).toContain('skald_job_queue_jobs{queue="q",state="waiting"} 1');
    // Every metric is collected at once: the failure counted during one scrape shows in the next.
    expect(await registry.metrics()).toContain('skald_metrics_collect_errors_total{source="bus"} 1');
  });

  it('adds nothing for an adapter that cannot tell', async () => {
    const registry = new Registry();
    registerAdapterMetrics(registry, { bus: {}, jobs: {} });
    expect(await registry.metrics()).not.toMatch(/skald_bus_consumer_lag|skald_bus_dead_letters|skald_job_queue_jobs/);
  });
});

describe('metrics listener', () => {
  const servers: MetricsServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  it('serves GET /metrics in the Prometheus text format and nothing else', async () => {
    const registry = new Registry();
    new Counter({ name: 'skald_test_served_total', help: 'served', registers: [registry] });
    const server = await startMetricsServer({ registry, host: '127.0.0.1', port: 0, log: silentLog });
    servers.push(server);
    expect(server.port).toBeGreaterThan(0);
    const answer = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    expect(await answer.text()).toContain('skald_test_served_total 0');
    for (const [method, path] of [['GET', '/'], ['GET', '/api/metrics'], ['POST', '/metrics']] as const) {
      const other = await fetch(`http://127.0.0.1:${server.port}${path}`, { method });
      expect(other.status, `${method} ${path}`).toBe(404);
      await other.body?.cancel();
    }
  });

  it('logs and carries on when its port is taken', async () => {
    const first = await startMetricsServer({ registry: new Registry(), host: '127.0.0.1', port: 0, log: silentLog });
    servers.push(first);
    const log = { ...silentLog, lines: [] as string[] };
    const second = await startMetricsServer({ registry: new Registry(), host: '127.0.0.1', port: first.port!, log });
    servers.push(second);
    expect(second.port).toBeNull();
    expect(log.lines).toEqual(['metrics listener could not start; serving without /metrics']);
  });
});
