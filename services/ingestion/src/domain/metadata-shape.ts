/**
 * The shape limits of a log's `metadata`, checked by an iterative walk BEFORE anything recursive touches
 * the value: JSON.stringify, the event validator and every later serialiser recurse once per nesting
 * level, and at a few thousand levels the stack overflows (a 500, which game plugins retry forever).
 * JSON.parse itself is iterative in V8, so a 5 MiB body can carry 100,000 levels to this point.
 *
 * The same walk bounds the value's JSON length from above, so the size limit is decided without
 * serialising the value when even the bound fits (the common case: a few short keys and values; the
 * batch path paid a JSON.stringify per log for it). Only a value whose bound exceeds the limit is measured
 * exactly by the caller.
 */
import { LOG_LIMITS } from '@skald/contracts';

/**
 * Objects and arrays nested at most this deep, the metadata object itself being level 1. Plugins send
 * flat key/value maps or a level or two of structure; 32 is far beyond that and far below any
 * serialiser's recursion limit.
 */
export const METADATA_MAX_DEPTH = 32;

/**
 * - `depth`, `size`: a limit is broken (size: more values than characters allowed).
 * - `fits`: within both limits; its JSON is certainly no longer than `LOG_LIMITS.maxMetadataLength`.
 * - `measure`: within the depth limit, but only its exact JSON length can tell the size limit.
 */
export type MetadataShape = 'depth' | 'size' | 'fits' | 'measure';

/** The longest JSON of a number: sign, six leading zeros, point, 17 significant digits (`-0.0000012345678901234567`). */
const MAX_NUMBER_JSON = 25;
/** A string's JSON: quotes, and at most six characters per UTF-16 unit (`\u001f`). */
const stringJsonBound = (text: string): number => 6 * text.length + 2;

/** An upper bound of a primitive's JSON length; NaN for what JSON.stringify would not write plainly. */
function primitiveJsonBound(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return stringJsonBound(value);
    case 'number':
      return MAX_NUMBER_JSON;
    case 'boolean':
      return 5;
    default:
      return value === null ? 4 : Number.NaN;
  }
}

/**
 * 0 for a nested array or plain object (its own bound is added when it is walked); NaN for any other
 * object (a Date's toJSON: JSON.parse makes none, the exact measure decides it).
 */
function nestedJsonBound(child: object): number {
  if (Array.isArray(child)) return 0;
  const proto: unknown = Object.getPrototypeOf(child);
  return proto === Object.prototype || proto === null ? 0 : Number.NaN;
}

interface Pending {
  readonly node: object;
  readonly depth: number;
}

/**
 * Walks `value` without recursion: the first limit it breaks, else whether its JSON surely fits. The walk
 * visits at most `LOG_LIMITS.maxMetadataLength` values: each value takes at least one character of JSON,
 * so more values than that cannot fit the size limit and the walk stops there, whatever the body holds.
 * A flat map allocates nothing here: nested values alone are queued. The bound turns NaN on anything it
 * cannot bound, which then compares as "measure".
 */
export function metadataShape(value: object): MetadataShape {
  let pending: Pending[] | null = null;
  let node = value;
  let depth = 1;
  let visited = 0;
  // Brackets, and per member its key, colon and comma: a bound, not the length.
  let bound = 0;
  for (;;) {
    if (depth > METADATA_MAX_DEPTH) return 'depth';
    bound += 2;
    if (Array.isArray(node)) {
      const items = node as readonly unknown[];
      visited += items.length;
      if (visited > LOG_LIMITS.maxMetadataLength) return 'size';
      for (let i = 0; i < items.length; i++) {
        const child = items[i];
        if (typeof child === 'object' && child !== null) {
          (pending ??= []).push({ node: child, depth: depth + 1 });
          bound += 1 + nestedJsonBound(child);
        } else {
          bound += 1 + primitiveJsonBound(child);
        }
      }
    } else {
      const members = node as Readonly<Record<string, unknown>>;
      for (const key in members) {
        if (++visited > LOG_LIMITS.maxMetadataLength) return 'size';
        const child = members[key];
        if (typeof child === 'object' && child !== null) {
          (pending ??= []).push({ node: child, depth: depth + 1 });
          bound += stringJsonBound(key) + 2 + nestedJsonBound(child);
        } else {
          bound += stringJsonBound(key) + 2 + primitiveJsonBound(child);
        }
      }
    }
    const next = pending?.pop();
    if (next === undefined) break;
    node = next.node;
    depth = next.depth;
  }
  return bound <= LOG_LIMITS.maxMetadataLength ? 'fits' : 'measure';
}
