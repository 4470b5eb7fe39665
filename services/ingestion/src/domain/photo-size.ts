/**
 * How large a stored photo may be. Decoding and re-encoding cost memory in proportion to the pixels
 * written, and the encoders differ: JPEG and PNG stream a few rows at a time, WebP holds the whole
 * picture several times over, and with transparency its lossless alpha coder needs about three times more
 * again (measured by `npm run bench -- photo-memory`). A near-40-megapixel upload used to be re-encoded at
 * full size: ~260 MB for a JPEG and over 300 MB for a WebP, per photo.
 *
 * So the stored image is capped in pixels (aspect ratio kept, never enlarged): 4K UHD worth for JPEG, PNG
 * and opaque WebP (every common screenshot size is kept as sent), QHD worth for WebP with transparency.
 * With these caps one decode stays under DECODE_BUDGET_BYTES (photo-memory.ts), whatever the input.
 */

export type StoredFormat = 'jpeg' | 'png' | 'webp';

/** The upload itself: at most 10 MB (docs/spec/part-2.txt section 7) and 40 megapixels (checked from the header, before any decode). */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const MAX_PIXELS = 40_000_000;

/** 3840 x 2160: a 4K UHD screenshot is stored unchanged. */
export const STORED_MAX_PIXELS = 3840 * 2160;
/** 2560 x 1440: WebP with an alpha channel, whose encoder needs about three times the memory per pixel. */
export const STORED_MAX_PIXELS_WEBP_ALPHA = 2560 * 1440;

export function storedPixelCap(format: StoredFormat, hasAlpha: boolean): number {
  return format === 'webp' && hasAlpha ? STORED_MAX_PIXELS_WEBP_ALPHA : STORED_MAX_PIXELS;
}

/**
 * The size the stored image gets: `width` x `height` scaled down (same aspect ratio, whole pixels, at
 * least 1) until it fits `cap` pixels; unchanged when it already fits.
 */
export function storedSize(width: number, height: number, cap: number): { readonly width: number; readonly height: number } {
  if (width * height <= cap) return { width, height };
  const scale = Math.sqrt(cap / (width * height));
  let w = Math.max(1, Math.floor(width * scale));
  let h = Math.max(1, Math.floor(height * scale));
  // Floating point can land one pixel over; shave the longer side until it fits.
  while (w * h > cap) {
    if (w >= h) w -= 1;
    else h -= 1;
  }
  return { width: w, height: h };
}
