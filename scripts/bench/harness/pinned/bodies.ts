/**
 * The request bodies of the pinned ingestion benchmark, shared by the load phases and the limits child,
 * so Skald and its baselines see the same bytes.
 */
import sharp from 'sharp';

/** A typical single log: what a FiveM resource sends per event. */
export const SINGLE_BODY = JSON.stringify({ message: 'player joined the server', level: 'info', type: 'Join', resource: 'spawn', metadata: { player: 'Ann', ping: 42 } });

export const BATCH_SIZE = 1000;

/** A batch of 1000: what ox_lib flushes every 500 ms on a busy server. */
export const BATCH_BODY = JSON.stringify(
  Array.from({ length: BATCH_SIZE }, (_, i) => ({ message: `bench log line ${i}`, level: i % 5 === 0 ? 'warn' : 'info', type: 'Bench', resource: `res-${i % 10}`, metadata: { i } })),
);

export const MULTIPART_BOUNDARY = '----skald-bench-boundary-7d1f';

/** A POST /photologs body: the photo and a message, as a game server's screenshot resource sends it. */
export function photoForm(image: Buffer, filename: string, contentType: string): Buffer {
  const head =
    `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="message"\r\n\r\nscreenshot of player 12\r\n` +
    `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="photo"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), image, Buffer.from(`\r\n--${MULTIPART_BOUNDARY}--\r\n`)]);
}

/**
 * A 1920x1080 screenshot-like picture (smooth gradients with detail, the size FiveM's screenshot-basic
 * takes), JPEG at quality 90 or PNG, generated at run time.
 */
export async function screenshot(format: 'jpeg' | 'png'): Promise<Buffer> {
  const noise = await sharp({ create: { width: 240, height: 135, channels: 3, background: '#6080a0', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .png()
    .toBuffer();
  const picture = sharp(noise).resize(1920, 1080, { kernel: 'cubic' });
  return format === 'jpeg' ? picture.jpeg({ quality: 90 }).toBuffer() : picture.png().toBuffer();
}
