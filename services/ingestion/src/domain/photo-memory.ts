/**
 * The memory photo uploads can make one process use, and the settings that keep it there (without
 * them, four parallel near-40-megapixel uploads took a process from 283 MB to 815 MB).
 *
 * Worst case above the process's idle memory, whatever tenants send (docs/INGESTION.md, "Photo memory"):
 *   DECODE_SLOTS x DECODE_BUDGET_BYTES                              decodes running (their output included)
 * + MAX_PHOTOS_IN_FLIGHT x (MAX_PHOTO_BYTES + MAX_STORED_BYTES)     uploads held: received, waiting, storing
 * `npm run bench -- photo-memory` measures each decode against the budget and parallel uploads against
 * the bound; deploy/check-manifests.mjs checks that idle memory plus the bound fits the memory limits.
 */
import type Sharp from 'sharp';
import { PhotoGate } from './photo-gate.ts';
import { MAX_PHOTO_BYTES, STORED_MAX_PIXELS } from './photo-size.ts';
import type { StoredFormat } from './photo-size.ts';

/**
 * The memory of one decode slot: decode + re-encode + thumbnail at the stored-size caps of photo-size.ts,
 * the output included. Measured worst (`npm run bench -- photo-memory`, near-40-megapixel uploads): about
 * 120 MB for an opaque WebP, 90 MB for a PNG with alpha, 35 MB for a JPEG; a WebP with transparency takes
 * two slots (its alpha plane is decoded at full size, ~4 bytes per uploaded pixel): up to about 250 MB.
 */
export const DECODE_BUDGET_BYTES = 160 * 1024 * 1024;
/** Decode slots: one libvips thread per decode, so two keep two cores busy. */
export const DECODE_SLOTS = 2;
/** Uploads admitted at once (receiving, waiting for a slot, decoding, storing); the next gets a 503. */
export const MAX_PHOTOS_IN_FLIGHT = 4;
/** The longest an admitted upload waits for a decode slot before it gets a 503. */
export const MAX_DECODE_WAIT_MS = 15_000;
export const PHOTO_RETRY_AFTER_S = 5;
/** The largest re-encoded image: 4 bytes per pixel (8-bit RGBA that does not compress), plus the thumbnail. */
export const MAX_STORED_BYTES = STORED_MAX_PIXELS * 4 + 1024 * 1024;

export const PHOTO_MEMORY_BOUND_BYTES = DECODE_SLOTS * DECODE_BUDGET_BYTES + MAX_PHOTOS_IN_FLIGHT * (MAX_PHOTO_BYTES + MAX_STORED_BYTES);

/** Slots a decode takes: two for a WebP with transparency (see DECODE_BUDGET_BYTES), else one. */
export function decodeSlotsFor(format: StoredFormat, hasAlpha: boolean): number {
  return format === 'webp' && hasAlpha ? 2 : 1;
}

/** The process's one gate: memory is per process, so every ingestion route instance shares it. */
export const photoGate = new PhotoGate({
  maxInFlight: MAX_PHOTOS_IN_FLIGHT,
  decodeSlots: DECODE_SLOTS,
  maxDecodeWaitMs: MAX_DECODE_WAIT_MS,
  retryAfterSeconds: PHOTO_RETRY_AFTER_S,
});

let loaded: Promise<typeof Sharp> | null = null;

/**
 * sharp, loaded on the first photo rather than at start-up: libvips and its codecs are ~20 MB of the
 * process's memory, which a process that never receives a photo should not carry (idle RSS).
 *
 * With the libvips settings for a budget that holds everywhere: no operation cache (every photo is new, so
 * the cache only kept up to 50 MB of pixels from earlier ones) and one worker thread per pipeline (the
 * default depends on the platform and core count, and each thread adds its own buffers).
 */
export function loadSharp(): Promise<typeof Sharp> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return loaded;
}
