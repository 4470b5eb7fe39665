/**
 * Photos for the photo-memory benchmark, generated with sharp at run time (no binary fixtures): a
 * photo-like texture (random noise upscaled, so it compresses like a real picture and a near-40-megapixel
 * image still fits the 10 MB upload limit) in the wanted format, size and channel count.
 */
import sharp from 'sharp';

export type BenchFormat = 'jpeg' | 'png' | 'webp';

export interface BenchImageSpec {
  readonly format: BenchFormat;
  readonly width: number;
  readonly height: number;
  readonly alpha: boolean;
}

export const UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

/** width x height for `megapixels` at a 1:1 aspect, just under it. */
export function squareOf(megapixels: number): { width: number; height: number } {
  const side = Math.floor(Math.sqrt(megapixels * 1_000_000));
  return { width: side, height: side };
}

async function encodeTexture(spec: BenchImageSpec, grain: number): Promise<Buffer> {
  const channels = spec.alpha ? 4 : 3;
  const seed = await sharp({ create: { width: grain, height: grain, channels, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .png()
    .toBuffer();
  const texture = sharp(seed, { limitInputPixels: false }).resize(spec.width, spec.height, { fit: 'fill', kernel: 'cubic' });
  if (spec.format === 'jpeg') return texture.jpeg({ quality: 90 }).toBuffer();
  if (spec.format === 'webp') return texture.webp({ quality: 90 }).toBuffer();
  // A 16-colour palette keeps a 40-megapixel PNG under 10 MB; decoding still yields full RGB(A) pixels.
  return texture.png({ palette: true, colours: 16, compressionLevel: 9 }).toBuffer();
}

/** The finest texture that still fits the upload limit. */
export async function benchImage(spec: BenchImageSpec): Promise<Buffer> {
  for (const grain of [200, 100, 50, 25]) {
    const bytes = await encodeTexture(spec, grain);
    if (bytes.length <= UPLOAD_LIMIT_BYTES) return bytes;
  }
  throw new Error(`no ${spec.format} of ${spec.width}x${spec.height} fits ${UPLOAD_LIMIT_BYTES} bytes`);
}
