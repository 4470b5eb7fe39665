/**
 * A log's own time through the real routes (the ingestion service over the embedded adapters): the native
 * `timestamp` on POST /logs and /photologs, and the compatible formats' time fields (Loki's protobuf push
 * included), land in the published event as createdAt with the arrival as receivedAt; an invalid native
 * timestamp is a 400 naming the field that publishes, stores and counts nothing. Times are taken relative
 * to the clock with margins of minutes and hours, so a slow machine cannot move a case across the window.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import sharp from 'sharp';
import snappy from 'snappyjs';
import type { AcceptedLog } from '@skald/contracts';
import { harnessWithServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { form } from './support/photo-forms.ts';

const KEY = 'sk_time_key_0123456789abcdef';
const HOUR = 3600_000;

let h: Harness;
beforeEach(async () => {
  h = await harnessWithServer({ serverId: 'srv-t', apiKey: KEY });
});
afterEach(() => h.close());

function published(): AcceptedLog[] {
  return h.batches().flatMap((batch) => batch.logs);
}

/** Runs `send` and answers the clock's bounds around it (the arrival lies between them). */
async function timed(send: () => Promise<void>): Promise<{ before: number; after: number }> {
  const before = Date.now();
  await send();
  return { before, after: Date.now() };
}

describe('POST /logs with a timestamp', () => {
  it('takes ISO 8601 and epoch milliseconds within the window, keeps the arrival beside them, and notes one outside it', async () => {
    const now = Date.now();
    const iso = new Date(now - 2 * HOUR).toISOString();
    const ms = now - 23 * HOUR;
    const tooOld = now - 25 * HOUR;
    const { before, after } = await timed(async () => {
      const res = await h.inject({
        method: 'POST',
        url: '/logs',
        headers: { 'x-api-key': KEY },
        payload: [
          { message: 'iso', timestamp: iso },
          { message: 'ms', timestamp: ms },
          { message: 'none' },
          { message: 'old', timestamp: tooOld, metadata: { k: 1 } },
        ],
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().ids).toHaveLength(4);
    });
    const [a, b, c, d] = published();
    expect(a!.createdAt).toBe(Date.parse(iso));
    expect(b!.createdAt).toBe(ms);
    for (const log of [a!, b!]) {
      expect(log.receivedAt).toBeGreaterThanOrEqual(before);
      expect(log.receivedAt).toBeLessThanOrEqual(after);
    }
    expect(c!.createdAt).toBeGreaterThanOrEqual(before);
    expect(c!.createdAt).toBeLessThanOrEqual(after);
    expect(c!.receivedAt).toBeUndefined();
    expect(d!.createdAt).toBeGreaterThanOrEqual(before);
    expect(d!.metadata).toEqual({ k: 1, _skald: { clientTimestamp: tooOld, timestampRejected: 'too old' } });
    expect(await h.quotaUsed('srv-t')).toBe(4);
  });

  it('answers 400 naming the field for an invalid timestamp, publishing and counting nothing of the request', async () => {
    const res = await h.inject({
      method: 'POST',
      url: '/logs',
      headers: { 'x-api-key': KEY },
      payload: [{ message: 'fine', timestamp: Date.now() }, { message: 'bad', timestamp: '10/03/2026 12:00' }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      field: '[1].timestamp',
      message: "Invalid field '[1].timestamp': must be an ISO 8601 time with its UTC offset (2025-08-20T11:59:59Z) or epoch milliseconds",
    });
    const single = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: { message: 'bad', timestamp: false } });
    expect(single.statusCode).toBe(400);
    expect(single.json()).toMatchObject({ field: 'timestamp' });
    expect(h.bus.published).toHaveLength(0);
    expect(await h.quotaUsed('srv-t')).toBe(0);
  });
});

describe('POST /photologs with a timestamp field', () => {
  async function photo(): Promise<Buffer> {
    return sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 10, g: 200, b: 40 } } }).png().toBuffer();
  }

  it('takes the form’s timestamp as the photo log’s time; an invalid one is a 400 that stores no object', async () => {
    const when = Date.now() - 3 * HOUR;
    const ok = form([{ name: 'message', value: 'shot' }, { name: 'timestamp', value: new Date(when).toISOString() }, { name: 'photo', filename: 'a.png', type: 'image/png', data: await photo() }], KEY);
    const res = await h.inject({ method: 'POST', url: '/photologs', headers: ok.headers, payload: ok.payload });
    expect(res.statusCode).toBe(201);
    const [log] = published();
    expect(log).toMatchObject({ logType: 'photo', createdAt: when });
    expect(log!.receivedAt).toBeGreaterThan(when);
    const objects = (await h.objectKeys()).length;

    const bad = form([{ name: 'timestamp', value: 'noon' }, { name: 'photo', filename: 'a.png', type: 'image/png', data: await photo() }], KEY);
    const refused = await h.inject({ method: 'POST', url: '/photologs', headers: bad.headers, payload: bad.payload });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ field: 'timestamp' });
    expect(published()).toHaveLength(1);
    expect(await h.objectKeys()).toHaveLength(objects);
    expect(await h.quotaUsed('srv-t')).toBe(1);
  });
});

describe('the compatible formats’ times through their routes', () => {
  it('Loki protobuf: seconds and nanos to the millisecond', async () => {
    const root = protobuf.parse(`syntax = "proto3"; package logproto;
      message PushRequest { repeated StreamAdapter streams = 1; }
      message StreamAdapter { string labels = 1; repeated EntryAdapter entries = 2; }
      message EntryAdapter { Timestamp timestamp = 1; string line = 2; }
      message Timestamp { int64 seconds = 1; int32 nanos = 2; }`).root;
    const PushRequest = root.lookupType('logproto.PushRequest');
    const seconds = Math.floor((Date.now() - HOUR) / 1000);
    const body = PushRequest.encode(
      PushRequest.create({ streams: [{ labels: '{event="join"}', entries: [{ timestamp: { seconds, nanos: 987_654_321 }, line: 'proto line' }] }] }),
    ).finish();
    const res = await h.inject({ method: 'POST', url: '/loki/api/v1/push', headers: { 'content-type': 'application/x-protobuf', 'x-api-key': KEY }, payload: Buffer.from(snappy.compress(body)) });
    expect(res.statusCode).toBe(204);
    const [log] = published();
    expect(log).toMatchObject({ message: 'proto line', createdAt: seconds * 1000 + 987, metadata: null });
  });

  it('Loki JSON, Datadog and Fivemanage (POST /logs with the raw key) take their clients’ times', async () => {
    const now = Date.now();
    const lokiNs = `${now - 10 * 60_000}000000`;
    expect((await h.inject({ method: 'POST', url: '/loki/api/v1/push', headers: { 'x-api-key': KEY }, payload: { streams: [{ stream: { event: 'e' }, values: [[lokiNs, 'loki line']] }] } })).statusCode).toBe(204);
    const ddDate = new Date(now - 4 * HOUR).toISOString();
    expect((await h.inject({ method: 'POST', url: '/v2/logs', headers: { 'dd-api-key': KEY }, payload: [{ message: 'dd ms', service: 's', timestamp: now - HOUR }, { message: 'dd date', service: 's', date: ddDate }] })).statusCode).toBe(202);
    expect((await h.inject({ method: 'POST', url: '/logs', headers: { authorization: KEY }, payload: { message: 'fm', level: 'info', timestamp: now - 30_000 } })).statusCode).toBe(200);
    expect(published().map((log) => [log.message, log.createdAt])).toEqual([
      ['loki line', now - 10 * 60_000],
      ['dd ms', now - HOUR],
      ['dd date', Date.parse(ddDate)],
      ['fm', now - 30_000],
    ]);
    for (const log of published()) expect(log.receivedAt).toBeGreaterThanOrEqual(now);
  });
});
