/**
 * A refused field, whichever route found it (the native validation or a compatible format's mapper), is the
 * same answer: 400 `{error, message, field}`, `field` being the path the client sent (`[12].level`).
 */
import { HttpError } from '@skald/service-kit';
import { CompatShapeError } from '../domain/compat/compat-log.ts';
import { InvalidFieldError } from '../domain/log-input.ts';

/** A mapper's refusal or a field the native rules refuse, as the 400; anything else is rethrown. */
export function asBadRequest(error: unknown): never {
  if (error instanceof CompatShapeError || error instanceof InvalidFieldError) {
    throw new HttpError(400, error.message, { extra: { field: error.field } });
  }
  throw error;
}

/** Runs `parse` (a translation or a validation), turning its refusals into 400s. */
export function translated<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    return asBadRequest(error);
  }
}
