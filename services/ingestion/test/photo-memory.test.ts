/**
 * What bounds a photo upload's memory, through POST /photologs: the stored image is
 * capped in pixels (upright, aspect kept), libvips keeps no cache, and an upload the process has no room
 * for is refused with 503 + Retry-After before its body is read. Images are generated with sharp here;
 * the memory figures themselves are measured by `npm run bench -- photo-memory`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Metadata, Sharp } from 'sharp';
import { MAX_PHOTOS_IN_FLIGHT, photoGate } from '../src/domain/photo-memory.ts';
import { STORED_MAX_PIXELS, STORED_MAX_PIXELS_WEBP_ALPHA } from '../src/domain/photo-size.ts';
import { harnessWithServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { form } from './support/photo-forms.ts';

const KEY = 'sk_photo_memory_0123456789abcdef';
const SERVER = 'srv-pm';

/** A flat-colour image: tiny file, full pixel count to decode. */
function flat(width: number, height: number, channels: 3 | 4): Sharp {
  return sharp({ create: { width, height, channels, background: { r: 30, g: 120, b: 200, alpha: 0.5 } } });
}

describe('POST /photologs: memory bounds', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harnessWithServer({ serverId: SERVER, apiKey: KEY });
  });
  afterEach(() => h.close());

  async function upload(data: Buffer, filename: string): Promise<{ status: number; stored: Metadata | null; retryAfter: unknown; body: unknown }> {
    const { payload, headers } = form([{ name: 'photo', filename, type: 'application/octet-stream', data }], KEY);
    const res = await h.inject({ method: 'POST', url: '/photologs', headers, payload });
    const imageKey = (await h.objectKeys()).find((key) => key.startsWith('photos/'));
    const stored = imageKey === undefined ? null : await sharp((await h.readObject(imageKey))!.body).metadata();
    return { status: res.statusCode, stored, retryAfter: res.headers['retry-after'], body: res.json() };
  }

  it('stores a 24-megapixel JPEG scaled down to the 4K UHD pixel cap, aspect kept', async () => {
    const { status, stored } = await upload(await flat(6000, 4000, 3).jpeg().toBuffer(), 'big.jpg');
    expect(status).toBe(201);
    expect(stored!.width! * stored!.height!).toBeLessThanOrEqual(STORED_MAX_PIXELS);
    expect(stored!.width! * stored!.height!).toBeGreaterThan(STORED_MAX_PIXELS * 0.99);
    expect(stored!.width! / stored!.height!).toBeCloseTo(1.5, 2);
  });

  it('keeps a 4K UHD screenshot at its size', async () => {
    const { status, stored } = await upload(await flat(3840, 2160, 3).png().toBuffer(), '4k.png');
    expect(status).toBe(201);
    expect([stored!.width, stored!.height]).toEqual([3840, 2160]);
  });

  it('applies the EXIF orientation before the cap: a sideways 6000x4000 is stored upright as a portrait', async () => {
    const sideways = await flat(6000, 4000, 3).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const { status, stored } = await upload(sideways, 'sideways.jpg');
    expect(status).toBe(201);
    expect(stored!.orientation).toBeUndefined();
    expect(stored!.height!).toBeGreaterThan(stored!.width!);
    expect(stored!.height! / stored!.width!).toBeCloseTo(1.5, 2);
    expect(stored!.width! * stored!.height!).toBeLessThanOrEqual(STORED_MAX_PIXELS);
  });

  it('caps a WebP with transparency at the QHD pixel count (its encoder needs the most memory per pixel)', async () => {
    const { status, stored } = await upload(await flat(3000, 3000, 4).webp().toBuffer(), 'alpha.webp');
    expect(status).toBe(201);
    expect(stored!.format).toBe('webp');
    expect(stored!.hasAlpha).toBe(true);
    expect(stored!.width! * stored!.height!).toBeLessThanOrEqual(STORED_MAX_PIXELS_WEBP_ALPHA);
  });

  it('leaves no libvips cache behind (every photo is new: a cache only holds earlier pixels)', async () => {
    expect((await upload(await flat(640, 480, 3).jpeg().toBuffer(), 'small.jpg')).status).toBe(201);
    const cache = sharp.cache();
    expect(cache.memory.max).toBe(0);
    expect(cache.items.max).toBe(0);
    expect(sharp.concurrency()).toBe(1);
  });

  it(`refuses upload ${MAX_PHOTOS_IN_FLIGHT + 1} with 503 + Retry-After before reading it, stores nothing, counts nothing, then admits again`, async () => {
    const photo = await flat(640, 480, 3).jpeg().toBuffer();
    const held = Array.from({ length: MAX_PHOTOS_IN_FLIGHT }, () => photoGate.enter());
    try {
      const refused = await upload(photo, 'busy.jpg');
      expect(refused.status).toBe(503);
      expect(refused.retryAfter).toBe('5');
      // The same delay in the body, for clients that get no headers (FXServer's PerformHttpRequest).
      expect(refused.body).toMatchObject({ retryAfter: 5 });
      expect(refused.stored).toBeNull();
      expect(h.bus.published).toHaveLength(0);
      expect(await h.quotaUsed(SERVER)).toBe(0);
    } finally {
      for (const leave of held) leave();
    }
    expect((await upload(photo, 'later.jpg')).status).toBe(201);
    // Every admitted upload left the gate once answered.
    expect(photoGate.stats()).toEqual({ inFlight: 0, slotsInUse: 0, waiting: 0 });
  });

  it('a refusal before the gate (401) takes no place in it', async () => {
    const { payload, headers } = form([{ name: 'photo', filename: 'a.jpg', type: 'image/jpeg', data: await flat(8, 8, 3).jpeg().toBuffer() }], 'wrong-key');
    expect((await h.inject({ method: 'POST', url: '/photologs', headers, payload })).statusCode).toBe(401);
    expect(photoGate.stats().inFlight).toBe(0);
  });
});
