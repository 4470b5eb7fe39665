/**
 * Photo-log image handling. Trust nothing the client says about the file: the type is detected from the
 * bytes, the dimensions are read from the header and refused above MAX_PIXELS BEFORE any full decode
 * (a 600 KB PNG can declare 14000x14000 pixels), and the stored image is re-encoded, which drops EXIF/GPS
 * data and any bytes trailing the image (polyglots). A WebP thumbnail is made for the grid.
 */
import sharp from 'sharp';
import type { Metadata } from 'sharp';
import { fileTypeFromBuffer } from 'file-type';

export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
/** 40 megapixels: above any screenshot, far below what would exhaust memory when decoded. */
export const MAX_PIXELS = 40_000_000;
export const THUMB_SIZE = 320;

const ALLOWED = {
  'image/jpeg': { format: 'jpeg', ext: 'jpg' },
  'image/png': { format: 'png', ext: 'png' },
  'image/webp': { format: 'webp', ext: 'webp' },
} as const;
type AllowedMime = keyof typeof ALLOWED;

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
  readonly width: number;
  readonly height: number;
}

function isAllowedMime(mime: string): mime is AllowedMime {
  return Object.hasOwn(ALLOWED, mime);
}

/** Detects the type from the bytes; throws UnsupportedImageError unless JPEG, PNG or WebP. */
export async function detectImageType(bytes: Buffer): Promise<AllowedMime> {
  const detected = await fileTypeFromBuffer(bytes);
  if (detected === undefined || !isAllowedMime(detected.mime)) {
    throw new UnsupportedImageError('Photo must be a JPG, PNG or WEBP image');
  }
  return detected.mime;
}

const sharpOptions = { limitInputPixels: MAX_PIXELS, failOn: 'error', animated: false } as const;

/** Header-only read: width x height must fit MAX_PIXELS. */
export async function checkDimensions(bytes: Buffer): Promise<{ width: number; height: number }> {
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
  return { width, height };
}

/** At most this many decodes run at once, bounding memory when many uploads arrive together. */
const MAX_CONCURRENT = 2;
let active = 0;
const waiting: (() => void)[] = [];

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (active >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  active += 1;
  try {
    return await work();
  } finally {
    active -= 1;
    waiting.shift()?.();
  }
}

export async function processPhoto(bytes: Buffer): Promise<ProcessedPhoto> {
  const contentType = await detectImageType(bytes);
  const { width, height } = await checkDimensions(bytes);
  const { format, ext } = ALLOWED[contentType];
  return withSlot(async () => {
    try {
      // rotate() applies the EXIF orientation before the metadata is dropped; sharp writes no
      // metadata unless asked (keepMetadata/withMetadata), which strips EXIF, GPS, XMP and ICC comments.
      const image = await sharp(bytes, sharpOptions).rotate().toFormat(format, { quality: 85 }).toBuffer();
      const thumb = await sharp(bytes, sharpOptions)
        .rotate()
        .resize({ width: THUMB_SIZE, height: THUMB_SIZE, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 70 })
        .toBuffer();
      return { image, contentType, ext, thumb, width, height };
    } catch (error) {
      if (error instanceof Error && /pixel limit/i.test(error.message)) {
        throw new ImageTooLargeError('Photo dimensions are too large');
      }
      throw new UnsupportedImageError('Photo is not a readable JPG, PNG or WEBP image');
    }
  });
}
