/** Figures from timed samples, and the machine's load to print beside them (the machine is shared). */
import { availableParallelism, loadavg } from 'node:os';

/** The value at fraction p (0..1) of the samples, sorted in place, to two decimals. */
export function percentiles(samples: number[]): { p50: number; p95: number } {
  samples.sort((a, b) => a - b);
  const at = (p: number): number => Number(samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]!.toFixed(2));
  return { p50: at(0.5), p95: at(0.95) };
}

/** The value at p percent of samples already sorted ascending. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The one-minute load average and the cores, as "load 1.3/2 cores". */
export function machineLoad(): string {
  return `load ${loadavg()[0]!.toFixed(1)}/${availableParallelism()} cores`;
}
