/**
 * POST /photologs over the embedded adapters (the file-system object store): what is stored is a
 * re-encoded image without metadata plus a thumbnail; every refusal leaves no object and no event behind.
 */
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import sharp from 'sharp';
import type { LogsBatchAccepted } from '@skald/contracts';
import { harnessWithServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { form as encodeForm, pngHeaderOnly } from './support/photo-forms.ts';
import type { FormPart } from './support/photo-forms.ts';

const KEY = 'sk_photo_key_abcdef0123456789';

/** The multipart encoder with this file's key. */
function form(parts: readonly FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  return encodeForm(parts, KEY);
}

async function jpegWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'SECRET-EXIF-OWNER', Artist: 'gps-leaker' } })
    .toBuffer();
}

function onlyBatch(h: Harness): LogsBatchAccepted {
  const batches = h.batches();
  expect(batches).toHaveLength(1);
  return batches[0]!;
}

describe('POST /photologs', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harnessWithServer({ serverId: 'srv-p', apiKey: KEY });
  });
  afterEach(() => h.close());

  it('stores a re-encoded photo without EXIF plus a WebP thumbnail, and publishes their keys', async () => {
    const original = await jpegWithExif();
    expect(original.includes(Buffer.from('SECRET-EXIF-OWNER'))).toBe(true);
    // A trailing payload (polyglot) must not survive re-encoding.
    const polyglot = Buffer.concat([original, Buffer.from('<script>alert(1)</script>')]);
    const { payload, headers } = form([
      { name: 'message', value: 'death at spawn' },
      { name: 'level', value: 'warn' },
      { name: 'metadata', value: '{"player":"Ann"}' },
      { name: 'photo', filename: '../../evil.php', type: 'text/html', data: polyglot },
    ]);
    const res = await h.inject({ method: 'POST', url: '/photologs', headers, payload });
    expect(res.statusCode).toBe(201);
    const { id } = res.json<{ id: string }>();
    const log = onlyBatch(h).logs[0]!;
    expect(log).toMatchObject({ id, logType: 'photo', level: 'warn', message: 'death at spawn', metadata: { player: 'Ann' } });
    expect(log.imageKey).toBe(`photos/srv-p/${id}.jpg`);
    expect(log.thumbKey).toBe(`thumbs/srv-p/${id}.webp`);
    const image = (await h.readObject(log.imageKey!))!;
    const thumb = (await h.readObject(log.thumbKey!))!;
    expect(image.contentType).toBe('image/jpeg');
    expect(thumb.contentType).toBe('image/webp');
    expect(image.body.includes(Buffer.from('SECRET-EXIF-OWNER'))).toBe(false);
    expect(image.body.includes(Buffer.from('<script>'))).toBe(false);
    expect((await sharp(image.body).metadata()).exif).toBeUndefined();
    const thumbMeta = await sharp(thumb.body).metadata();
    expect(Math.max(thumbMeta.width!, thumbMeta.height!)).toBeLessThanOrEqual(320);
  });

  it('answers 415 for bytes that are not JPG/PNG/WEBP, whatever the declared type', async () => {
    for (const data of [Buffer.from('<html><body>hi</body></html>'), Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), Buffer.from('GIF89a....')]) {
      const { payload, headers } = form([{ name: 'photo', filename: 'x.jpg', type: 'image/jpeg', data }]);
      const res = await h.inject({ method: 'POST', url: '/photologs', headers, payload });
      expect(res.statusCode).toBe(415);
    }
    expect(await h.objectKeys()).toEqual([]);
    expect(h.bus.published).toHaveLength(0);
  });

  it('answers 413 for a photo over 10 MB and leaves no object behind', async () => {
    const big = Buffer.concat([await jpegWithExif(), Buffer.alloc(10 * 1024 * 1024 + 1)]);
    const { payload, headers } = form([{ name: 'photo', filename: 'big.jpg', type: 'image/jpeg', data: big }]);
    const res = await h.inject({ method: 'POST', url: '/photologs', headers, payload });
    expect(res.statusCode).toBe(413);
    expect(await h.objectKeys()).toEqual([]);
    expect(h.bus.published).toHaveLength(0);
  });

  it('refuses a pixel bomb (14000x14000 PNG) from its header, before decoding', async () => {
    const bomb = pngHeaderOnly(14_000, 14_000);
    expect((await sharp(bomb, { limitInputPixels: false }).metadata()).width).toBe(14_000);
    const { payload, headers } = form([{ name: 'photo', filename: 'bomb.png', type: 'image/png', data: bomb }]);
    const started = performance.now();
    const res = await h.inject({ method: 'POST', url: '/photologs', headers, payload });
    expect(res.statusCode).toBe(413);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await h.objectKeys()).toEqual([]);
  }, 60_000); // builds a 14000x14000 PNG header and uploads it

  it('answers 400 without a photo, with a bad metadata string, or with a second file', async () => {
    const none = form([{ name: 'message', value: 'x' }]);
    expect((await h.inject({ method: 'POST', url: '/photologs', headers: none.headers, payload: none.payload })).statusCode).toBe(400);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'white' } }).png().toBuffer();
    const badMeta = form([{ name: 'metadata', value: '[1]' }, { name: 'photo', filename: 'a.png', type: 'image/png', data: png }]);
    const res = await h.inject({ method: 'POST', url: '/photologs', headers: badMeta.headers, payload: badMeta.payload });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ field: string }>().field).toBe('metadata');
    const other = form([{ name: 'avatar', filename: 'a.png', type: 'image/png', data: png }]);
    expect((await h.inject({ method: 'POST', url: '/photologs', headers: other.headers, payload: other.payload })).statusCode).toBe(400);
    expect(await h.objectKeys()).toEqual([]);
  });

  it('answers 400 naming the field for a text field that is not valid UTF-8, as JSON routes do', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'white' } }).png().toBuffer();
    const encoded = form([{ name: 'message', value: 'bad-@@-bytes' }, { name: 'photo', filename: 'a.png', type: 'image/png', data: png }]);
    const at = encoded.payload.indexOf('@@');
    // 0xC3 0x28: a two-byte lead followed by a byte that cannot continue it.
    const payload = Buffer.concat([encoded.payload.subarray(0, at), Buffer.from([0xc3, 0x28]), encoded.payload.subarray(at + 2)]);
    const res = await h.inject({ method: 'POST', url: '/photologs', headers: encoded.headers, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'message', error: "Invalid field 'message': is not valid UTF-8" });
    expect(await h.objectKeys()).toEqual([]);
    expect(h.batches()).toHaveLength(0);
  });

  it('answers 415 for a JSON body and 401 without a key', async () => {
    const json = await h.inject({ method: 'POST', url: '/photologs', headers: { 'x-api-key': KEY }, payload: { message: 'x' } });
    expect(json.statusCode).toBe(415);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'white' } }).png().toBuffer();
    const { payload, headers } = form([{ name: 'photo', filename: 'a.png', type: 'image/png', data: png }]);
    const noKey = await h.inject({ method: 'POST', url: '/photologs', headers: { 'content-type': headers['content-type']! }, payload });
    expect(noKey.statusCode).toBe(401);
  });

  it('deletes the stored objects when the event cannot be published', async () => {
    h.bus.failPublish = true;
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: 'white' } }).png().toBuffer();
    const { payload, headers } = form([{ name: 'photo', filename: 'a.png', type: 'image/png', data: png }]);
    const res = await h.inject({ method: 'POST', url: '/photologs', headers, payload });
    expect(res.statusCode).toBe(503);
    expect(await h.objectKeys()).toEqual([]);
  });

  it('counts a photo log against the hourly quota', async () => {
    const fill = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: Array.from({ length: 1000 }, () => ({ message: 'x' })) });
    expect(fill.statusCode).toBe(201);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'white' } }).png().toBuffer();
    const { payload, headers } = form([{ name: 'photo', filename: 'a.png', type: 'image/png', data: png }]);
    const res = await h.inject({ method: 'POST', url: '/photologs', headers, payload });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.json<{ retryAfter: number }>().retryAfter).toBe(Number(res.headers['retry-after']));
    expect(await h.objectKeys()).toEqual([]);
  });
});
