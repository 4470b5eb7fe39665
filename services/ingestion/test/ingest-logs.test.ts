/**
 * POST /logs over the embedded adapters: keys, tiers and suspension arrive as identity events (as from
 * auth), accepted logs leave as `logs.batch-accepted` messages; refusals publish nothing.
 */
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { LOGS_BATCH_ACCEPTED_TYPE, TOPICS } from '@skald/contracts';
import { waitFor } from '@skald/testing';
import { harnessWithServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const KEY = 'sk_test_key_0123456789abcdef';

function storedIds(h: Harness): string[] {
  return h.batches().flatMap((batch) => batch.logs.map((l) => l.id));
}

describe('POST /logs', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harnessWithServer({ serverId: 'srv-a', apiKey: KEY });
  });
  afterEach(() => h.close());

  it('accepts one log with the key in X-API-Key and publishes it durably with defaults', async () => {
    const res = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: { message: 'player joined' } });
    expect(res.statusCode).toBe(201);
    const { id } = res.json<{ id: string }>();
    expect(h.bus.published).toHaveLength(1);
    const message = h.bus.published[0]!;
    expect(message.topic).toBe(TOPICS.logsIngested);
    expect(message.key).toBe('srv-a');
    expect(message.headers?.['event-type']).toBe(LOGS_BATCH_ACCEPTED_TYPE);
    const batch = h.batches()[0]!;
    expect(batch.serverId).toBe('srv-a');
    expect(batch.logs).toEqual([
      expect.objectContaining({ id, level: 'info', type: 'General', resource: 'unknown', message: 'player joined', metadata: null, logType: 'text', imageKey: null }),
    ]);
    expect(res.headers['deprecation']).toBeUndefined();
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('accepts the key as Bearer and as the deprecated ?apiKey= (flagged in the answer)', async () => {
    const bearer = await h.inject({ method: 'POST', url: '/logs', headers: { authorization: `Bearer ${KEY}` }, payload: { message: 'a' } });
    expect(bearer.statusCode).toBe(201);
    const query = await h.inject({ method: 'POST', url: `/logs?apiKey=${KEY}`, payload: { message: 'b' } });
    expect(query.statusCode).toBe(201);
    expect(query.headers['deprecation']).toBe('true');
  });

  it('accepts a batch and answers every id, in one message', async () => {
    const logs = Array.from({ length: 250 }, (_, i) => ({ message: `m${i}`, level: i % 2 ? 'warn' : 'error', metadata: { i } }));
    const res = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: logs });
    expect(res.statusCode).toBe(201);
    const { ids } = res.json<{ ids: string[] }>();
    expect(ids).toHaveLength(250);
    expect(new Set(ids).size).toBe(250);
    expect(storedIds(h)).toEqual(ids);
    expect(h.batches()[0]!.logs[3]).toMatchObject({ message: 'm3', level: 'warn', metadata: { i: 3 } });
  });

  it('answers 401 for a missing, unknown or rotated key, identically', async () => {
    const missing = await h.inject({ method: 'POST', url: '/logs', payload: { message: 'x' } });
    const unknown = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': 'nope' }, payload: { message: 'x' } });
    await h.identity.rotateKey('srv-a', 'new-key', KEY);
    await waitFor(async () => (await h.keyStatus('new-key')) !== 401, 'the rotated key');
    const rotated = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: { message: 'x' } });
    const fresh = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': 'new-key' }, payload: { message: 'x' } });
    for (const res of [missing, unknown, rotated]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Invalid API key', message: 'Invalid API key' });
    }
    expect(fresh.statusCode).toBe(201);
    expect(h.bus.published).toHaveLength(1);
  });

  it('answers 403 for a suspended server and accepts again once unsuspended', async () => {
    await h.identity.suspended('srv-a', true);
    await waitFor(async () => (await h.keyStatus(KEY)) === 403, 'the suspension');
    const res = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: { message: 'x' } });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ error: string }>().error).toContain('suspended');
    await h.identity.suspended('srv-a', false);
    await waitFor(async () => (await h.keyStatus(KEY)) !== 403, 'the end of the suspension');
    const again = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: { message: 'x' } });
    expect(again.statusCode).toBe(201);
  });

  it('answers 400 naming the bad field and stores nothing of the batch', async () => {
    const res = await h.inject({
      method: 'POST',
      url: '/logs',
      headers: { 'x-api-key': KEY },
      payload: [{ message: 'fine' }, { message: 'bad', level: 'loud' }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string; field: string }>()).toMatchObject({ field: '[1].level' });
    expect(res.json<{ error: string }>().error).toContain("'[1].level'");
    const operator = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: { message: { $ne: null } } });
    expect(operator.statusCode).toBe(400);
    expect(h.bus.published).toHaveLength(0);
  });

  it('answers 413 for a body above the route limit and 400 for malformed JSON', async () => {
    const huge = JSON.stringify([{ message: 'x'.repeat(6 * 1024 * 1024) }]);
    const tooLarge = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, payload: huge });
    expect(tooLarge.statusCode).toBe(413);
    const malformed = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, payload: '{"message":' });
    expect(malformed.statusCode).toBe(400);
    expect(h.bus.published).toHaveLength(0);
  });

  it('counts the quota per log, all or nothing, with 429 + Retry-After + usage', async () => {
    // free tier: 1000 logs per hour
    const batch = (n: number) => Array.from({ length: n }, () => ({ message: 'q' }));
    const first = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: batch(600) });
    expect(first.statusCode).toBe(201);
    const refused = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: batch(600) });
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.json<{ usage: unknown }>().usage).toMatchObject({ used: 600, limit: 1000, remaining: 400, tierLabel: 'Free' });
    // The body repeats the delay for clients that get no headers (FXServer's PerformHttpRequest).
    expect(refused.json<{ retryAfter: unknown }>().retryAfter).toBe(retryAfter);
    const rest = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: batch(400) });
    expect(rest.statusCode).toBe(201);
    const over = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: { message: 'one more' } });
    expect(over.statusCode).toBe(429);
    expect(storedIds(h)).toHaveLength(1000);
  });

  it('applies a tier change from the identity stream to the quota', async () => {
    await h.identity.tier('srv-a', 'lite');
    await waitFor(async () => (await h.stored('srv-a'))?.tier.key === 'lite', 'the tier change');
    const batch = Array.from({ length: 1000 }, () => ({ message: 'q' }));
    for (let i = 0; i < 5; i++) {
      const res = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: batch });
      expect(res.statusCode).toBe(201);
    }
    const over = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: { message: 'x' } });
    expect(over.statusCode).toBe(429);
    expect(over.json<{ usage: { limit: number } }>().usage.limit).toBe(5000);
  });

  it('answers 503 with Retry-After, never 2xx, when the bus refuses the batch', async () => {
    h.bus.failPublish = true;
    const res = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: { message: 'x' } });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ error: 'Service Unavailable', message: 'Service Unavailable', retryAfter: 5 });
  });

  it('coalesces concurrent requests into fewer publish calls, each answered with its own id', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: { message: `c${i}` } }),
      ),
    );
    expect(results.every((r) => r.statusCode === 201)).toBe(true);
    const ids = results.map((r) => r.json<{ id: string }>().id);
    expect(new Set(storedIds(h))).toEqual(new Set(ids));
    expect(h.bus.publishCalls).toBeLessThanOrEqual(20);
  });
});
