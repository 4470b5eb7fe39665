/**
 * One line of the `npm run bench` table. A benchmark file (scripts/bench/benchmarks/<name>.bench.ts) default-exports
 * an async function returning BenchRow[]; scripts/bench.mjs runs every file in its own process and prints
 * the rows side by side. `pass: false` marks a missed target (the harness still exits 0: figures, not gates).
 */
export interface BenchRow {
  /** What was measured, e.g. "insertBatch (1000/batch)". */
  readonly name: string;
  readonly value: number;
  /** e.g. "logs/s", "ms". */
  readonly unit: string;
  /** The bar, as text, e.g. ">= 200000 logs/s" or "p95 < 20 ms". */
  readonly target?: string;
  /** Whether the bar was met; leave undefined for figures without a bar. */
  readonly pass?: boolean;
  /** A comparison figure measured in the same run, e.g. "bare Fastify 41000 req/s". */
  readonly baseline?: string;
  /** Anything a reader needs to interpret the figure (sizes, conditions). */
  readonly note?: string;
}
