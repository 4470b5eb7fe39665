/**
 * The refusals that ask the client to come back later: a 503 when a dependency is unavailable or the
 * process has no room for another photo, both with a retry delay (the 429 of a spent quota carries its own:
 * quota-admission.ts). Thrown as HttpError; the kit's error handler keeps their headers (it masks only a
 * 5xx's text).
 */
import { HttpError } from '@skald/service-kit';
import type { PhotoBusyError } from './photo-gate.ts';

const RETRY_AFTER_UNAVAILABLE_S = 5;

/**
 * The delay of a 429 or 503 as the `Retry-After` header AND as `retryAfter` (seconds) in the body:
 * FXServer's PerformHttpRequest hands a game script no headers for answers of 400 or more, only the
 * body, so a FiveM resource can honour the delay only if the body carries it.
 */
export function retryDelay(seconds: number): { headers: Record<string, string>; extra: { retryAfter: number } } {
  return { headers: { 'retry-after': String(seconds) }, extra: { retryAfter: seconds } };
}

/** 503: nothing of the request was accepted; the client retries the same request later. */
export function unavailable(): HttpError {
  return new HttpError(503, 'Service Unavailable', retryDelay(RETRY_AFTER_UNAVAILABLE_S));
}

/** 503: nothing of the upload was accepted; the client sends it again after Retry-After. */
export function photoBusy(error: PhotoBusyError): HttpError {
  return new HttpError(503, 'Service Unavailable', retryDelay(error.retryAfterSeconds));
}
