/**
 * The API key stays out of every log line and answer, whatever the request or failure; and no fuzzed
 * body, content type or query string makes the service answer 5xx.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fc from 'fast-check';
import { harnessWithServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const SECRET = 'SKALDSECRETKEY0123456789abcdefXYZ';

describe('the API key never reaches a log line', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harnessWithServer({ serverId: 'srv-r', apiKey: SECRET });
  });
  afterAll(() => h.close());

  it('valid key, invalid key, 404, 413, 400, 503 and a failing dependency: SECRET appears nowhere', async () => {
    const q = `apiKey=${SECRET}`;
    const answers = [
      await h.inject({ method: 'POST', url: `/logs?${q}`, payload: { message: 'ok' } }),
      await h.inject({ method: 'POST', url: `/logs?apiKey=${SECRET}x`, payload: { message: 'bad key' } }),
      await h.inject({ method: 'POST', url: `/nope?${q}`, payload: { message: 'x' } }),
      await h.inject({ method: 'GET', url: `/logs?${q}` }),
      await h.inject({
        method: 'POST',
        url: `/logs?${q}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ message: 'x'.repeat(6 * 1024 * 1024) }),
      }),
      await h.inject({ method: 'POST', url: `/logs?${q}`, headers: { 'content-type': 'application/json' }, payload: '{"message":' }),
      await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': SECRET, authorization: `Bearer ${SECRET}` }, payload: { message: 'hdr' } }),
    ];
    h.bus.failPublish = true;
    answers.push(await h.inject({ method: 'POST', url: `/logs?${q}`, payload: { message: 'bus down' } }));
    h.bus.failPublish = false;
    // A failing dependency whose error message embeds the URL: the logged error must be scrubbed too.
    h.counters.failConsume = new Error(`redis down while handling ?${q}`);
    answers.push(await h.inject({ method: 'POST', url: `/logs?${q}`, payload: { message: 'counters down' } }));

    expect(answers.map((a) => a.statusCode)).toEqual([201, 401, 404, 404, 413, 400, 201, 503, 503]);
    for (const answer of answers) expect(answer.body).not.toContain(SECRET);
    expect(h.logLines.length).toBeGreaterThan(10);
    const leaked = h.logLines.filter((line) => line.includes(SECRET) || line.includes(SECRET.slice(0, 20)));
    expect(leaked).toEqual([]);
  });
});

describe('fuzzed bodies and query strings never produce a 5xx', () => {
  let h: Harness;
  const KEY = 'fuzz-key-0123456789';
  beforeAll(async () => {
    h = await harnessWithServer({ serverId: 'srv-f', apiKey: KEY, tier: 'legend' });
  });
  afterAll(() => h.close());

  const logLike = fc.record(
    {
      message: fc.oneof(fc.string(), fc.jsonValue()),
      level: fc.oneof(fc.constantFrom('info', 'warn', 'error', 'fatal', 'debug', 'WARNING'), fc.jsonValue()),
      type: fc.oneof(fc.string(), fc.jsonValue()),
      resource: fc.oneof(fc.string(), fc.jsonValue()),
      metadata: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
      __proto__: fc.jsonValue(),
      constructor: fc.jsonValue(),
    },
    { requiredKeys: [] },
  );

  it('JSON bodies (log-like objects, arrays, arbitrary JSON) answer 2xx or 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(logLike, fc.array(logLike, { maxLength: 5 }), fc.jsonValue()), async (body) => {
        const res = await h.inject({
          method: 'POST',
          url: '/logs',
          headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
          payload: JSON.stringify(body) ?? 'null',
        });
        expect(res.statusCode, res.body).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
  });

  it('raw bytes, odd content types and query strings answer 2xx or 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200 }),
        fc.constantFrom('application/json', 'text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'image/png'),
        fc.string({ maxLength: 60 }),
        fc.constantFrom('/logs', '/photologs'),
        async (payload, contentType, query, path) => {
          const res = await h.inject({
            method: 'POST',
            url: `${path}?${encodeURI(query).replace(/#/g, '%23')}&apiKey=${KEY}`,
            headers: { 'content-type': contentType },
            payload,
          });
          expect(res.statusCode, res.body).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
  });
});
