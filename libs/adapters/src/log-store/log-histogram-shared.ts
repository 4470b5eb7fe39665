/** Histogram helpers shared by the SQLite and MongoDB log stores (LogStore.histogram). */
import { MAX_HISTOGRAM_BUCKETS } from '@skald/ports';
import type { LogHistogram, LogMatchSpan } from '@skald/ports';

export const EMPTY_HISTOGRAM: LogHistogram = { edges: [], counts: [], capped: false, span: null };

/** Refuses edges a caller computed wrongly before they reach a database: 2..MAX+1 ascending safe integers. */
export function validateHistogramEdges(edges: readonly number[]): void {
  if (!Array.isArray(edges) || edges.length < 2 || edges.length > MAX_HISTOGRAM_BUCKETS + 1) {
    throw new RangeError(`histogram edges must be 2 to ${MAX_HISTOGRAM_BUCKETS + 1} instants`);
  }
  for (let i = 0; i < edges.length; i++) {
    const edge = edges[i]!;
    if (!Number.isSafeInteger(edge)) throw new RangeError('histogram edges must be integer epoch milliseconds');
    if (i > 0 && edge <= edges[i - 1]!) throw new RangeError('histogram edges must ascend strictly');
  }
}

/** What one access path (a "part" of the matches) says about its newest cap+1 matches. */
export interface PartSpan {
  /** How many of the newest cap+1 matches the part read. */
  readonly n: number;
  readonly oldest: number;
  readonly newest: number;
  /** When n > cap: the earliest instant from which every match of the part is among those read. */
  readonly cutoff: number;
}

/**
 * The span over the parts: capped when one part had more than `cap` matches; `first` is then the latest of
 * the capped parts' cutoffs, so every match from `first` on was among the rows read. Null without matches.
 */
export function combineSpans(parts: readonly PartSpan[], cap: number): LogMatchSpan | null {
  const found = parts.filter((p) => p.n > 0);
  if (found.length === 0) return null;
  let first = Math.min(...found.map((p) => p.oldest));
  const last = Math.max(...found.map((p) => p.newest));
  const capped = found.filter((p) => p.n > cap);
  if (capped.length > 0) first = Math.max(...capped.map((p) => p.cutoff));
  return { first, last, capped: capped.length > 0 };
}

/** Accumulates (bucket, level, n) rows from the store into one record per bucket. */
export class HistogramCounts {
  readonly #counts: Map<string, number>[];

  constructor(buckets: number) {
    this.#counts = Array.from({ length: buckets }, () => new Map<string, number>());
  }

  /** Adds (or, negative, takes back) n logs of the level to the bucket. */
  add(bucket: number, level: string, n: number): void {
    const entry = this.#counts[bucket];
    if (entry === undefined || n === 0) return;
    const key = level.toLowerCase();
    entry.set(key, (entry.get(key) ?? 0) + n);
  }

  /** Levels left at 0 (all their logs taken back) are dropped. */
  build(edges: readonly number[], span: LogMatchSpan): LogHistogram {
    const counts = this.#counts.map((entry) => Object.fromEntries([...entry].filter(([, n]) => n > 0)));
    return { edges: [...edges], counts, capped: span.capped, span };
  }
}

/** The counted range: the query's bounds, the edges and the span's first instant, all together (inclusive ms). */
export function countedRange(query: { readonly from?: number; readonly to?: number }, edges: readonly number[], span: LogMatchSpan): { from: number; to: number } {
  return {
    from: Math.max(query.from ?? Number.NEGATIVE_INFINITY, edges[0]!, span.first),
    to: Math.min(query.to ?? Number.POSITIVE_INFINITY, edges[edges.length - 1]! - 1),
  };
}
