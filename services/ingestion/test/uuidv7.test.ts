import { describe, it, expect } from 'vitest';
import { uuidv7, uuidv7Time } from '../src/domain/uuidv7.ts';

describe('uuidv7', () => {
  it('has the RFC 9562 layout: version 7, variant 10, timestamp in the first 48 bits', () => {
    const now = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
    const id = uuidv7(now);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidv7Time(id)).toBe(now);
  });

  it('is strictly increasing within one millisecond, beyond the 4096-value counter', () => {
    const now = Date.now() + 10_000;
    const ids = Array.from({ length: 10_000 }, () => uuidv7(now));
    const sorted = [...ids].sort();
    expect(sorted).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('stays ordered when the clock steps back', () => {
    const a = uuidv7(Date.now() + 20_000);
    const b = uuidv7(Date.now() - 60_000);
    expect(b > a).toBe(true);
  });
});

describe('uuidv7 random bits', () => {
  it('gives every id fresh random bits, across refills of the random pool, and never hands out the same text twice', () => {
    const ids = Array.from({ length: 5_000 }, (_, i) => uuidv7(Date.UTC(2027, 0, 1) + i * 1_000));
    const tails = new Set(ids.map((id) => id.slice(19)));
    expect(tails.size).toBe(ids.length);
    // Ids returned earlier are not changed by later calls (the text is built in a reused buffer).
    const first = ids[0]!;
    uuidv7(Date.UTC(2027, 0, 2));
    expect(ids[0]).toBe(first);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
