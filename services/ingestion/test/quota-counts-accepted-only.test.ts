/**
 * Only accepted logs count against the hourly quota: a request refused for any reason
 * (400, 413, 415, 429, 503) leaves the counter GET /server/usage reads exactly where it was, for text
 * logs and photo logs alike; an accepted photo log counts one.
 */
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import sharp from 'sharp';
import { harnessWithServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { form, pngHeaderOnly } from './support/photo-forms.ts';

const KEY = 'sk_quota_key_0123456789abcdef';
const SERVER = 'srv-q';

async function png(): Promise<Buffer> {
  return sharp({ create: { width: 16, height: 16, channels: 3, background: 'white' } }).png().toBuffer();
}

describe('the hourly quota counts accepted logs only', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harnessWithServer({ serverId: SERVER, apiKey: KEY });
  });
  afterEach(() => h.close());

  const postPhoto = async (data: Buffer): Promise<number> => {
    const { payload, headers } = form([{ name: 'message', value: 'shot' }, { name: 'photo', filename: 'a.png', type: 'image/png', data }], KEY);
    return (await h.inject({ method: 'POST', url: '/photologs', headers, payload })).statusCode;
  };
  const postLogs = async (payload: unknown): Promise<number> =>
    (await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: payload as object })).statusCode;

  it('a photo refused with 415 (not an image) costs nothing', async () => {
    expect(await postPhoto(Buffer.from('<html><body>not an image</body></html>'))).toBe(415);
    expect(await postPhoto(Buffer.from('GIF89a....'))).toBe(415);
    expect(await h.quotaUsed(SERVER)).toBe(0);
  });

  it('a photo refused with 413 (file over 10 MB, or a pixel bomb) costs nothing', async () => {
    expect(await postPhoto(Buffer.concat([await png(), Buffer.alloc(10 * 1024 * 1024 + 1)]))).toBe(413);
    expect(await postPhoto(pngHeaderOnly(14_000, 14_000))).toBe(413);
    expect(await h.quotaUsed(SERVER)).toBe(0);
  }, 60_000); // uploads a photo over 10 MB and a pixel bomb

  it('a photo log refused with 400 or 503 costs nothing; an accepted one costs one', async () => {
    const badMeta = form([{ name: 'metadata', value: '[1]' }, { name: 'photo', filename: 'a.png', type: 'image/png', data: await png() }], KEY);
    expect((await h.inject({ method: 'POST', url: '/photologs', headers: badMeta.headers, payload: badMeta.payload })).statusCode).toBe(400);
    h.bus.failPublish = true;
    expect(await postPhoto(await png())).toBe(503);
    expect(await h.quotaUsed(SERVER)).toBe(0);
    h.bus.failPublish = false;
    expect(await postPhoto(await png())).toBe(201);
    expect(await h.quotaUsed(SERVER)).toBe(1);
  });

  it('a refused text batch (400, 413, 429, 503) leaves usage unchanged', async () => {
    expect(await postLogs([{ message: 'a' }])).toBe(201);
    expect(await postLogs([{ message: 'fine' }, { message: 'bad', level: 'loud' }])).toBe(400);
    expect(await postLogs([{ message: 'x'.repeat(6 * 1024 * 1024) }])).toBe(413);
    expect(await postLogs(Array.from({ length: 1000 }, () => ({ message: 'over' })))).toBe(429);
    h.bus.failPublish = true;
    expect(await postLogs(Array.from({ length: 10 }, () => ({ message: 'down' })))).toBe(503);
    expect(await h.quotaUsed(SERVER)).toBe(1);
  });

  it('a photo is refused with 429 once the quota is used up, before its image is processed', async () => {
    expect(await postLogs(Array.from({ length: 1000 }, () => ({ message: 'fill' })))).toBe(201);
    // Not an image: a 415 here would mean the photo was looked at before the quota was checked.
    expect(await postPhoto(Buffer.from('not an image'))).toBe(429);
    expect(await h.quotaUsed(SERVER)).toBe(1000);
  });
});
