/**
 * Ingestion's own metrics: every answer counted by route and outcome (accepted, or the refusal's
 * reason), and the logs accepted (a batch counts each log), so accepted + refused adds up to what
 * game servers sent. Labels carry route patterns and reasons only, never a key or a server id.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harnessWithServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { ingestOutcome } from '../src/http/routes.ts';

const KEY = 'sk_test_key_metrics_0123456789';

describe('ingestion metrics', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harnessWithServer({ serverId: 'srv-metrics', apiKey: KEY });
  });
  afterEach(() => h.close());

  /** The value of one series (0 when absent): the harness's own key probes count too, so tests compare deltas. */
  const valueOf = async (series: string): Promise<number> => {
    const line = (await h.app.metrics.metrics()).split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? 0 : Number(line.slice(series.length + 1));
  };
  const outcome = (name: string): string => `skald_ingest_requests_total{route="/logs",outcome="${name}"}`;
  const ACCEPTED_LOGS = 'skald_ingest_logs_accepted_total{route="/logs"}';

  it('counts accepted requests and logs, and refusals by reason', async () => {
    const series = [outcome('accepted'), outcome('invalid_key'), outcome('invalid_body'), outcome('suspended'), ACCEPTED_LOGS];
    const before = await Promise.all(series.map(valueOf));
    const post = (headers: Record<string, string>, payload: unknown) => h.inject({ method: 'POST', url: '/logs', headers, payload: payload as object });
    expect((await post({ 'x-api-key': KEY }, { message: 'one' })).statusCode).toBe(201);
    expect((await post({ 'x-api-key': KEY }, [{ message: 'a' }, { message: 'b' }, { message: 'c' }])).statusCode).toBe(201);
    expect((await post({ 'x-api-key': 'sk_wrong_key_000000000000000' }, { message: 'x' })).statusCode).toBe(401);
    expect((await post({ 'x-api-key': KEY }, { level: 'info' })).statusCode).toBe(400);
    await h.identity.suspended('srv-metrics', true);
    expect((await post({ 'x-api-key': KEY }, { message: 'y' })).statusCode).toBe(403);

    const after = await Promise.all(series.map(valueOf));
    expect(after.map((value, i) => value - before[i]!)).toEqual([2, 1, 1, 1, 4]);
    const text = await h.app.metrics.metrics();
    expect(text).toContain('skald_http_request_duration_seconds_count{method="POST",route="/logs",status_code="201"} 2');
    for (const secret of [KEY, 'srv-metrics', 'sk_wrong_key']) expect(text).not.toContain(secret);
  });

  it('names every declared refusal, and anything else an error', () => {
    expect([200, 201, 400, 401, 403, 413, 415, 429, 503, 500, 404].map(ingestOutcome)).toEqual([
      'accepted', 'accepted', 'invalid_body', 'invalid_key', 'suspended', 'too_large', 'unsupported_media_type', 'quota', 'unavailable', 'error', 'error',
    ]);
  });
});
