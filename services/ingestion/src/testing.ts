/**
 * Internals for benchmarks and tests, never for production code (which gets the factory from index.ts):
 * the UUIDv7 generator (the log-store benchmark makes realistic ids with it) and the API-key read model
 * (tests open a second replica over the service's document store).
 */
export { uuidv7, uuidv7Time } from './domain/uuidv7.ts';
export { KeyDirectory } from './domain/key-directory.ts';
export type { KeyOwner } from './domain/key-directory.ts';
// Photo processing and its memory bound: the photo-memory benchmark measures them, the manifest check
// compares the bound with the deployments' memory limits.
export { processPhoto } from './domain/photo.ts';
export { DECODE_BUDGET_BYTES, DECODE_SLOTS, MAX_PHOTOS_IN_FLIGHT, MAX_STORED_BYTES, PHOTO_MEMORY_BOUND_BYTES } from './domain/photo-memory.ts';
export { MAX_PHOTO_BYTES, STORED_MAX_PIXELS, STORED_MAX_PIXELS_WEBP_ALPHA } from './domain/photo-size.ts';
