/**
 * A JSON object with any keys and values, for event schemas (a log's metadata, an audit entry's details).
 * TypeBox compiles `Type.Record(Type.String(), Type.Unknown())` into a walk of `Object.entries(value)`
 * that tests every key against the pattern `^.*$` and accepts whatever it finds: on the batch path every
 * consumer group validated every log's metadata that way, ~250 bytes of garbage per log (an allocation profile). A parsed JSON object's keys are strings, so "an object,
 * not an array, not null" is the same check, compiled without the walk. The static type stays
 * `Record<string, unknown>`. Not for the HTTP answer schemas: fast-json-stringify serializes from them.
 */
import Type from 'typebox';
import type { TUnsafe } from 'typebox';

export const AnyObject = (): TUnsafe<Record<string, unknown>> =>
  Type.Unsafe<Record<string, unknown>>(Type.Object({}, { additionalProperties: true }));
