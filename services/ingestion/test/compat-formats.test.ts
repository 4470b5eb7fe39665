/**
 * The compatible formats on the ingestion service alone (as it runs behind the proxy-only gateway, which
 * forwards compressed bodies untouched): the service decodes gzip and deflate itself, bounds the
 * DECOMPRESSED size, and the mappers' rules hold. The replays of the real clients through the whole stack
 * are in test/compat-clients.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deflateSync, gzipSync } from 'node:zlib';
import { colorLevel, discordType } from '../src/domain/compat/discord.ts';
import { splitTags } from '../src/domain/compat/compat-log.ts';
import { parseLabelText, parseLokiProtobuf } from '../src/domain/compat/loki.ts';
import { CompatShapeError } from '../src/domain/compat/compat-log.ts';
import { harnessWithServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const KEY = 'sk_compat_key_0123456789abcdef';

describe('compatible endpoints on the ingestion service alone', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harnessWithServer({ serverId: 'srv-c', apiKey: KEY });
  });
  afterEach(() => h.close());

  it('decodes a gzip Loki push and a deflate Datadog batch', async () => {
    const push = { streams: [{ stream: { event: 'join' }, values: [['1', 'plain line']] }] };
    const loki = await h.inject({ method: 'POST', url: '/loki/api/v1/push', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-api-key': KEY }, payload: gzipSync(JSON.stringify(push)) });
    expect(loki.statusCode).toBe(204);
    const dd = await h.inject({ method: 'POST', url: '/v2/logs', headers: { 'content-type': 'application/json', 'content-encoding': 'deflate', 'dd-api-key': KEY }, payload: deflateSync(JSON.stringify([{ message: 'dd line', service: 'svc', status: 'error' }])) });
    expect(dd.statusCode).toBe(202);
    const logs = h.batches().flatMap((b) => b.logs);
    expect(logs.map((l) => [l.message, l.type, l.level])).toEqual([
      ['plain line', 'join', 'info'],
      ['dd line', 'svc', 'error'],
    ]);
    expect(await h.quotaUsed('srv-c')).toBe(2);
  });

  it('refuses a gzip bomb at the decompressed limit (413), corrupt gzip (400) and an unknown encoding (415), storing nothing', async () => {
    const bomb = gzipSync(Buffer.alloc(6 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const big = await h.inject({ method: 'POST', url: '/v2/logs', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'dd-api-key': KEY }, payload: bomb });
    expect(big.statusCode).toBe(413);
    const corrupt = await h.inject({ method: 'POST', url: '/v2/logs', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'dd-api-key': KEY }, payload: Buffer.from('not gzip at all') });
    expect(corrupt.statusCode).toBe(400);
    const br = await h.inject({ method: 'POST', url: '/v2/logs', headers: { 'content-type': 'application/json', 'content-encoding': 'br', 'dd-api-key': KEY }, payload: Buffer.from('x') });
    expect(br.statusCode).toBe(415);
    expect(h.bus.published).toHaveLength(0);
    expect(await h.quotaUsed('srv-c')).toBe(0);
  });

  it('cuts an over-long message instead of refusing it, and keeps an unknown level as metadata', async () => {
    const res = await h.inject({ method: 'POST', url: '/v3/logs', headers: { authorization: KEY }, payload: [{ message: 'x'.repeat(12_000), level: 'notice' }] });
    expect(res.statusCode).toBe(200);
    const [log] = h.batches()[0]!.logs;
    expect(log!.message).toHaveLength(10_000);
    expect(log!.level).toBe('info');
    expect(log!.metadata).toEqual({ messageTruncatedFrom: 12_000, originalLevel: 'notice' });
  });

  it('answers the native POST /logs as before with X-API-Key, and as Fivemanage with a scheme-less Authorization', async () => {
    const native = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: { message: 'n' } });
    expect(native.statusCode).toBe(201);
    const fm = await h.inject({ method: 'POST', url: '/logs', headers: { authorization: KEY }, payload: { message: 'f', resource: 'qb-core' } });
    expect(fm.statusCode).toBe(200);
    expect(fm.json()).toEqual({ status: 'ok' });
  });

  it('answers 403 on every compatible route for a suspended server', async () => {
    await h.identity.suspended('srv-c', true);
    await expect.poll(async () => (await h.inject({ method: 'POST', url: '/v3/logs', headers: { authorization: KEY }, payload: [{ message: 'x' }] })).statusCode).toBe(403);
    const discord = await h.inject({ method: 'POST', url: `/discord/${KEY}/cat`, payload: { content: 'x' } });
    expect(discord.statusCode).toBe(403);
    expect(discord.body).not.toContain(KEY);
  });
});

describe('format rules', () => {
  it("splits tags on each tag's first colon and drops Lua table addresses", () => {
    expect(splitTags('a:1,license:license:abc,table: 0x7f00aa,flag, :x')).toEqual({ a: '1', license: 'license:abc', flag: true, ':x': true });
  });

  it('maps embed colours to levels', () => {
    expect([0xff0000, 0x8b0000, 0xff7f00, 0xffff00, 0xdc143c, 0x00ff00, 0xffffff, '#ff0000', undefined].map(colorLevel)).toEqual([
      'error', 'error', 'warn', 'warn', 'info', 'info', 'info', 'error', 'info',
    ]);
  });

  it('takes the Discord type from the category segment, never from a webhook id', () => {
    expect(discordType('joinleave', 'QB Logs')).toBe('joinleave');
    expect(discordType('123456/abcdef', 'QB Logs')).toBe('QB Logs');
    expect(discordType('', undefined)).toBe('Discord');
  });

  it('parses Loki label text with escapes and refuses anything else', () => {
    expect(parseLabelText('{event="a \\"b\\"", resource="r"}')).toEqual({ event: 'a "b"', resource: 'r' });
    expect(() => parseLabelText('{event=unquoted}')).toThrow(/Prometheus label text/);
  });
});

describe('Loki protobuf push (codec loaded on first use)', () => {
  it('refuses a body that is not a snappy block, and one that is not a PushRequest, as shape errors', async () => {
    await expect(parseLokiProtobuf(Buffer.from('definitely not snappy'))).rejects.toBeInstanceOf(CompatShapeError);
    // A valid snappy block (literal of 3 bytes) holding bytes that are no protobuf message.
    await expect(parseLokiProtobuf(Buffer.from([0x03, 0x08, 0xff, 0xff, 0xff]))).rejects.toBeInstanceOf(CompatShapeError);
  });
});
