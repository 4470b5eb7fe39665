/**
 * mulberry32, a deterministic pseudo-random generator for the contract suites and the adapters' tests: a failure
 * repeats with its seed.
 */

/** Numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Whole numbers in [0, n), from seededRandom's sequence. */
export function seededInt(seed: number): (n: number) => number {
  const next = seededRandom(seed);
  return (n) => Math.floor(next() * n);
}
