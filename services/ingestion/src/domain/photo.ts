/**
 * Photo-log image handling. Trust nothing the client says about the file: the type is detected from the
 * bytes, the dimensions are read from the header and refused above MAX_PIXELS BEFORE any full decode
 * (a 600 KB PNG can declare 14000x14000 pixels), and the stored image is re-encoded, which drops EXIF/GPS
 * data and any bytes trailing the image (polyglots). A WebP thumbnail is made for the grid.
 *
 * Memory: the stored image is capped in pixels (photo-size.ts), the encoders are set to stream where they
 * can, and decodes run in the process's PhotoGate slots (photo-memory.ts), so one decode stays within a
 * measured budget and the process within a documented bound.
 */
import type { JpegOptions, Metadata, PngOptions, WebpOptions } from 'sharp';
import type { PhotoGate } from './photo-gate.ts';
import { decodeSlotsFor, loadSharp, photoGate } from './photo-memory.ts';
import { MAX_PIXELS, storedPixelCap, storedSize } from './photo-size.ts';
import type { StoredFormat } from './photo-size.ts';

export { MAX_PHOTO_BYTES, MAX_PIXELS } from './photo-size.ts';
export const THUMB_SIZE = 320;
/** The 413's text for an upload over MAX_PHOTO_BYTES, whichever route read it. */
export const PHOTO_TOO_LARGE = 'Photo is larger than 10 MB';

const ALLOWED = {
  'image/jpeg': { format: 'jpeg', ext: 'jpg' },
  'image/png': { format: 'png', ext: 'png' },
  'image/webp': { format: 'webp', ext: 'webp' },
} as const;
type AllowedMime = keyof typeof ALLOWED;

/**
 * Encoder settings. JPEG: optimiseCoding off, because the optimised Huffman tables need a second pass
 * over ALL the image's coefficients, buffered (~250 MB at 40 megapixels) for about 5% smaller files. PNG:
 * the same lossless format as sent (a `quality` would quantise it to a 256-colour palette).
 */
const ENCODE: { readonly jpeg: JpegOptions; readonly png: PngOptions; readonly webp: WebpOptions } = {
  jpeg: { quality: 85, optimiseCoding: false },
  png: {},
  webp: { quality: 85 },
};

export class UnsupportedImageError extends Error {
  override readonly name = 'UnsupportedImageError';
}
export class ImageTooLargeError extends Error {
  override readonly name = 'ImageTooLargeError';
}

export interface ProcessedPhoto {
  readonly image: Buffer;
  readonly contentType: AllowedMime;
  readonly ext: string;
  readonly thumb: Buffer;
  /** Of the stored image: upright, within the stored-size cap. */
  readonly width: number;
  readonly height: number;
}

function isAllowedMime(mime: string): mime is AllowedMime {
  return Object.hasOwn(ALLOWED, mime);
}

/** Detects the type from the bytes; throws UnsupportedImageError unless JPEG, PNG or WebP. */
export async function detectImageType(bytes: Buffer): Promise<AllowedMime> {
  // Loaded on the first photo, like sharp (photo-memory.ts): nothing of it is needed for text logs.
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(bytes);
  if (detected === undefined || !isAllowedMime(detected.mime)) {
    throw new UnsupportedImageError('Photo must be a JPG, PNG or WEBP image');
  }
  return detected.mime;
}

const sharpOptions = { limitInputPixels: MAX_PIXELS, failOn: 'error', animated: false } as const;

interface PhotoHeader {
  /** As displayed, after the EXIF orientation (which swaps the sides for 5 to 8). */
  readonly width: number;
  readonly height: number;
  readonly hasAlpha: boolean;
}

/** Header-only read: width x height must fit MAX_PIXELS. */
export async function checkDimensions(bytes: Buffer): Promise<PhotoHeader> {
  // Outside the try: a sharp that cannot load is the server's failure (500), not an unreadable photo (415).
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    // metadata() parses the header without decoding pixels; limitInputPixels is disabled here so that
    // an oversized image is reported as too large (413) rather than as unreadable.
    meta = await sharp(bytes, { limitInputPixels: false, failOn: 'error', animated: false }).metadata();
  } catch {
    throw new UnsupportedImageError('Photo is not a readable JPG, PNG or WEBP image');
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width <= 0 || height <= 0) throw new UnsupportedImageError('Photo is not a readable JPG, PNG or WEBP image');
  if (width * height > MAX_PIXELS) {
    throw new ImageTooLargeError(`Photo dimensions ${width}x${height} exceed ${MAX_PIXELS / 1_000_000} megapixels`);
  }
  const sideways = (meta.orientation ?? 1) >= 5;
  return { width: sideways ? height : width, height: sideways ? width : height, hasAlpha: meta.hasAlpha ?? false };
}

async function encode(bytes: Buffer, format: StoredFormat, header: PhotoHeader): Promise<{ image: Buffer; width: number; height: number }> {
  const target = storedSize(header.width, header.height, storedPixelCap(format, header.hasAlpha));
  // rotate() applies the EXIF orientation before the metadata is dropped; sharp writes no metadata unless
  // asked (keepMetadata/withMetadata), which strips EXIF, GPS, XMP and ICC comments.
  const sharp = await loadSharp();
  let pipeline = sharp(bytes, sharpOptions).rotate();
  if (target.width !== header.width || target.height !== header.height) {
    // 'fill' to the computed size: the aspect ratio is already kept, and 'inside' could round a side up.
    pipeline = pipeline.resize({ width: target.width, height: target.height, fit: 'fill' });
  }
  const image = await pipeline.toFormat(format, ENCODE[format]).toBuffer();
  return { image, ...target };
}

/**
 * The thumbnail is made from the stored image, not from the upload: it is already upright and at most
 * the stored-size cap, while a large upload would be decoded a second time (a WebP with transparency in
 * full, ~4 bytes per pixel, whatever the output size).
 */
async function thumbnail(stored: Buffer): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(stored, sharpOptions)
    .resize({ width: THUMB_SIZE, height: THUMB_SIZE, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 70 })
    .toBuffer();
}

/**
 * Validates, re-encodes and thumbnails one photo in a decode slot of `gate`. Throws UnsupportedImageError
 * (415), ImageTooLargeError (413) or, when no slot frees in time, PhotoBusyError (503).
 */
export async function processPhoto(bytes: Buffer, gate: PhotoGate = photoGate): Promise<ProcessedPhoto> {
  const contentType = await detectImageType(bytes);
  const header = await checkDimensions(bytes);
  const { format, ext } = ALLOWED[contentType];
  return gate.decode(async () => {
    try {
      const { image, width, height } = await encode(bytes, format, header);
      const thumb = await thumbnail(image);
      return { image, contentType, ext, thumb, width, height };
    } catch (error) {
      if (error instanceof Error && /pixel limit/i.test(error.message)) {
        throw new ImageTooLargeError('Photo dimensions are too large');
      }
      throw new UnsupportedImageError('Photo is not a readable JPG, PNG or WEBP image');
    }
  }, decodeSlotsFor(format, header.hasAlpha));
}
