/** Median and spread of the per-round figures of the pinned benchmark. */

export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly rounds: number;
}

export function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, rounds: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, rounds: values.length };
}

/** "46% (44-49, 5 rounds)" for ratios; `unit` for other figures. */
export function describeSpread(s: Spread, format: (n: number) => string): string {
  return `median ${format(s.median)}, spread ${format(s.min)}-${format(s.max)} over ${s.rounds} rounds`;
}

export const pct = (n: number): string => `${Math.round(n * 100)}%`;
export const int = (n: number): string => Math.round(n).toLocaleString('en-US');
export const mib = (bytes: number): number => Math.round(bytes / 1024 / 1024);
