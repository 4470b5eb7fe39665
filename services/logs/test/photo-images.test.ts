import { describe, expect, it, onTestFinished } from 'vitest';
import { IMAGE_URL_BUCKET_MS, createImageUrlSigner } from '../src/domain/image-url.ts';
import { createHarness, getAs, NOW, record, seedServer } from './support/harness.ts';

const KEY = Buffer.alloc(32, 7).toString('base64');

describe('signed image URLs', () => {
  const signer = createImageUrlSigner(KEY, '/api');
  const tokenOf = (url: string) => new URL(url, 'http://x').searchParams.get('t')!;

  it('round-trips the object key and variant and is stable within a 10-minute bucket', () => {
    const url = signer.url('log-1', 'thumb', 'thumbs/s/log-1.webp', NOW);
    expect(signer.verify('log-1', tokenOf(url), NOW)).toEqual({ objectKey: 'thumbs/s/log-1.webp', variant: 'thumb' });
    const bucketStart = Math.floor(NOW / IMAGE_URL_BUCKET_MS) * IMAGE_URL_BUCKET_MS;
    expect(signer.url('log-1', 'thumb', 'thumbs/s/log-1.webp', bucketStart + IMAGE_URL_BUCKET_MS - 1)).toBe(url);
  });

  it('expires, is bound to the log id and the key, and refuses tampering', () => {
    const token = tokenOf(signer.url('log-1', 'full', 'photos/s/log-1.webp', NOW));
    expect(signer.verify('log-1', token, NOW + 2 * IMAGE_URL_BUCKET_MS + 1)).toBeNull();
    expect(signer.verify('log-2', token, NOW)).toBeNull();
    expect(createImageUrlSigner(Buffer.alloc(32, 8).toString('base64'), '/api').verify('log-1', token, NOW)).toBeNull();
    const [payload, sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ k: 'photos/other/secret.webp', v: 'full', e: NOW + 1e9 })).toString('base64url');
    expect(signer.verify('log-1', `${forged}.${sig}`, NOW)).toBeNull();
    expect(signer.verify('log-1', `${payload}.`, NOW)).toBeNull();
    expect(signer.verify('log-1', 'garbage', NOW)).toBeNull();
  });
});

describe('GET /photologs/image/:id', () => {
  it('serves the photo and thumbnail with content type, nosniff, inline filename and private caching', async () => {
    const h = await createHarness();
    onTestFinished(() => h.close());
    await seedServer(h, { serverId: 's', ownerId: 'o' }, { u: 'user' });
    await h.deps.objects.put('photos/s/p1.webp', Buffer.from('full-bytes'), 'image/webp');
    await h.deps.objects.put('thumbs/s/p1.webp', Buffer.from('thumb'), 'image/webp');
    await h.deps.logStore.insertBatch([record('s', { id: 'p1', logType: 'photo', imageKey: 'photos/s/p1.webp', thumbKey: 'thumbs/s/p1.webp' })]);
    const { photologs } = (await getAs(h, '/photologs/my?serverId=s', 'u')).json();
    const local = (path: string) => path.replace(/^\/api/, '');

    const full = await h.inject({ method: 'GET', url: local(photologs[0].image_path) });
    expect(full.statusCode).toBe(200);
    expect(full.body).toBe('full-bytes');
    expect(full.headers['content-type']).toBe('image/webp');
    expect(full.headers['x-content-type-options']).toBe('nosniff');
    expect(full.headers['content-disposition']).toBe('inline; filename="photolog-p1.webp"');
    expect(full.headers['cache-control']).toBe('private, max-age=600');

    const thumb = await h.inject({ method: 'GET', url: local(photologs[0].thumb_path) });
    expect(thumb.body).toBe('thumb');
    expect(thumb.headers['content-disposition']).toBe('inline; filename="photolog-p1-thumb.webp"');

    // Without the token, with another log's id, after expiry, and after the photo is deleted: 404.
    expect((await h.inject({ method: 'GET', url: '/photologs/image/p1' })).statusCode).toBe(400);
    expect((await h.inject({ method: 'GET', url: local(photologs[0].image_path).replace('/p1?', '/p2?') })).statusCode).toBe(404);
    h.clock.now = NOW + 3 * 600_000;
    expect((await h.inject({ method: 'GET', url: local(photologs[0].image_path) })).statusCode).toBe(404);
    h.clock.now = NOW;
    await h.deps.objects.delete(['photos/s/p1.webp']);
    expect((await h.inject({ method: 'GET', url: local(photologs[0].image_path) })).statusCode).toBe(404);
  });

  it('never renders a stored object of another content type inline', async () => {
    const h = await createHarness();
    onTestFinished(() => h.close());
    await h.deps.objects.put('photos/s/evil.webp', Buffer.from('<script>alert(1)</script>'), 'text/html');
    const signer = createImageUrlSigner(h.deps.secretsKey, '');
    const res = await h.inject({ method: 'GET', url: signer.url('evil', 'full', 'photos/s/evil.webp', NOW) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toMatch(/^attachment;/);
  });
});
