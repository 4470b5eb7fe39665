/**
 * The metrics listener: GET /metrics (Prometheus text format) on its own port, METRICS_PORT (default
 * 9464), never on the HTTP port. The gateway's and the all-in-one's HTTP port is the public one, and
 * metrics (route volumes, refusal counts, group and queue names) are for the operator's scraper only:
 * a port of its own is reachable where the operator lets it be (the pod network, not the Ingress or a
 * published compose port) and needs no credentials in the scrape config. Anything else answers 404.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics } from 'prom-client';
import type { Registry } from 'prom-client';

export interface MetricsServerOptions {
  readonly registry: Registry;
  readonly host: string;
  readonly port: number;
  readonly log: { error(object: object, message: string): void; info(object: object, message: string): void };
}

export interface MetricsServer {
  /** The bound port, or null when binding failed (logged; the process serves on without metrics). */
  readonly port: number | null;
  close(): Promise<void>;
}

/** Node's own gauges (CPU, memory, event-loop delay, GC, handles) on the process's registry. */
export function registerProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
}

export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    options.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': options.registry.contentType }).end(text),
      (error: unknown) => {
        options.log.error({ err: error }, 'metrics collection failed');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n');
      },
    );
  });
  server.keepAliveTimeout = 5_000;
  const bound = await new Promise<number | null>((resolve) => {
    server.once('error', (error) => {
      // Metrics are worth a log line, not the process: the scraper reports the target down.
      options.log.error({ err: error, port: options.port }, 'metrics listener could not start; serving without /metrics');
      resolve(null);
    });
    server.listen(options.port, options.host, () => resolve((server.address() as AddressInfo).port));
  });
  if (bound !== null) options.log.info({ port: bound }, `metrics at http://${options.host}:${bound}/metrics`);
  return {
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        if (bound === null) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
