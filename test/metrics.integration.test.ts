/**
 * Prometheus metrics from running processes (`node gateway/src/main.ts`): the all-in-one and one service
 * alone (TARGET=ingestion) each serve GET /metrics on METRICS_PORT, with request series per route
 * pattern, ingestion outcomes, bus consumer lag per group and job queue depths; the HTTP port (the
 * public one for the all-in-one) does not serve them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBEDDED_ADAPTERS_ENV } from '@skald/testing';
import { api, createServer, registerAndLogin } from './support/api-client.ts';
import { eventually, metricsPortOf, startSkald, waitForOk } from './support/processes.ts';
import type { SkaldProcess } from './support/processes.ts';

const root = mkdtempSync(join(tmpdir(), 'skald-metrics-'));
const started: SkaldProcess[] = [];

afterAll(async () => {
  for (const proc of started) await proc.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

async function scrape(metricsPort: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(5_000) });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

/** The value of one series in a scrape, or undefined when the scrape has none. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function start(name: string, env: Record<string, string>): Promise<{ proc: SkaldProcess; metricsPort: number }> {
  const proc = await startSkald(name, { ...env, METRICS_PORT: '0' });
  started.push(proc);
  await waitForOk(proc, '/health', 30_000);
  return { proc, metricsPort: await metricsPortOf(proc) };
}

describe('metrics of a running all-in-one', () => {
  // timeout: starts the all-in-one as a child process and scrapes it
  it('serves request, ingestion, consumer-lag, queue and process metrics on its metrics port only', { timeout: 90_000 }, async () => {
    const { proc, metricsPort } = await start('all-in-one', { DATA_DIR: join(root, 'all'), SKIP_WEB_BUILD: '1' });
    const token = await registerAndLogin(proc.baseUrl, 'metrics_user');
    const server = await createServer(proc.baseUrl, token, 'Metrics Server');
    await eventually('the new key to be accepted', async () => {
      const response = await api(proc.baseUrl, 'POST', '/api/logs', { headers: { 'x-api-key': server.api_key }, body: [{ message: 'a' }, { message: 'b' }] });
      return response.status === 201 ? response : undefined;
    });
    const refused = await api(proc.baseUrl, 'POST', '/api/logs', { headers: { 'x-api-key': 'sk_not_a_key_0000000000000000' }, body: { message: 'x' } });
    expect(refused.status).toBe(401);

    // The logs service consumes the accepted batch; its group's lag returns to zero.
    const text = await eventually('the logs-store group to catch up', async () => {
      const scraped = await scrape(metricsPort);
      return valueOf(scraped, 'skald_bus_consumer_lag{group="logs-store",topic="skald.logs.ingested.v1"}') === 0 ? scraped : undefined;
    });
    expect(valueOf(text, 'skald_http_request_duration_seconds_count{method="POST",route="/api/logs",status_code="201"}')).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'skald_http_request_duration_seconds_count{method="POST",route="/api/auth/register",status_code="201"}')).toBe(1);
    expect(valueOf(text, 'skald_ingest_requests_total{route="/api/logs",outcome="accepted"}')).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'skald_ingest_requests_total{route="/api/logs",outcome="invalid_key"}')).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'skald_ingest_logs_accepted_total{route="/api/logs"}')).toBe(2);
    expect(valueOf(text, 'skald_bus_consumer_lag{group="auth.identity",topic="skald.identity.v1"}')).toBeDefined();
    expect(valueOf(text, 'skald_job_queue_jobs{queue="logs-retention",state="waiting"}')).toBeDefined();
    expect(valueOf(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    for (const secret of [server.api_key, server.id, token]) expect(text).not.toContain(secret);

    // The public port has no /metrics.
    const onHttpPort = await fetch(`${proc.baseUrl}/metrics`);
    expect(await onHttpPort.text()).not.toContain('skald_http_request_duration_seconds');
  });
});

describe('metrics of one service alone', () => {
  // timeout: starts TARGET=ingestion as a child process and scrapes it
  it('TARGET=ingestion serves its own routes (no /api), outcomes and its identity group lag', { timeout: 90_000 }, async () => {
    const keysDir = join(root, 'keys');
    mkdirSync(keysDir, { recursive: true });
    const pair = generateKeyPairSync('ed25519', { publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
    writeFileSync(join(keysDir, 'public.pem'), pair.publicKey, { mode: 0o600 });
    const { proc, metricsPort } = await start('ingestion', {
      TARGET: 'ingestion',
      DATA_DIR: join(root, 'ingestion'),
      ...EMBEDDED_ADAPTERS_ENV,
      JWT_PUBLIC_KEY_FILE: join(keysDir, 'public.pem'),
      SECRETS_KEY: randomBytes(32).toString('base64'),
    });
    const refused = await api(proc.baseUrl, 'POST', '/logs', { headers: { 'x-api-key': 'sk_not_a_key_0000000000000000' }, body: { message: 'x' } });
    expect(refused.status).toBe(401);
    const text = await scrape(metricsPort);
    expect(valueOf(text, 'skald_ingest_requests_total{route="/logs",outcome="invalid_key"}')).toBe(1);
    expect(valueOf(text, 'skald_http_request_duration_seconds_count{method="POST",route="/logs",status_code="401"}')).toBe(1);
    expect(valueOf(text, 'skald_bus_consumer_lag{group="ingestion.identity",topic="skald.identity.v1"}')).toBe(0);
    expect(valueOf(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    const onHttpPort = await fetch(`${proc.baseUrl}/metrics`);
    expect(onHttpPort.status).toBe(404);
    await onHttpPort.body?.cancel();
  });
});
