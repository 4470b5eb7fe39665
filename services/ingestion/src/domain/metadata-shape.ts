/**
 * The shape limits of a log's `metadata`, checked by an iterative walk BEFORE anything recursive touches
 * the value: JSON.stringify, the event validator and every later serialiser recurse once per nesting
 * level, and at a few thousand levels the stack overflows (a 500, which game plugins retry forever).
 * JSON.parse itself is iterative in V8, so a 5 MiB body can carry 100,000 levels to this point.
 */
import { LOG_LIMITS } from '@skald/contracts';

/**
 * Objects and arrays nested at most this deep, the metadata object itself being level 1. Plugins send
 * flat key/value maps or a level or two of structure; 32 is far beyond that and far below any
 * serialiser's recursion limit.
 */
export const METADATA_MAX_DEPTH = 32;

export type MetadataShapeProblem = { readonly kind: 'depth' } | { readonly kind: 'size' };

/**
 * Walks `value` without recursion and reports the first limit it breaks, or null. The walk visits at most
 * `LOG_LIMITS.maxMetadataLength` values: each value takes at least one character of JSON, so more values
 * than that cannot fit the size limit and the walk stops there, whatever the body holds.
 */
export function metadataShapeProblem(value: object): MetadataShapeProblem | null {
  const stack: { readonly node: object; readonly depth: number }[] = [{ node: value, depth: 1 }];
  let visited = 0;
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > METADATA_MAX_DEPTH) return { kind: 'depth' };
    const children: readonly unknown[] = Array.isArray(node) ? node : Object.values(node);
    visited += children.length;
    if (visited > LOG_LIMITS.maxMetadataLength) return { kind: 'size' };
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push({ node: child, depth: depth + 1 });
    }
  }
  return null;
}
