import type { AlertFilter } from '@skald/contracts';
import { describe, expect, it } from 'vitest';
import { alertMatches } from '../src/domain/alerts/alert-filter.ts';
import { createRuleMatcher } from '../src/domain/alerts/alert-matcher.ts';

/** A small deterministic generator (the test must fail the same way every run). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 0x1_0000_0000;
  };
}

const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;

/** Upper- or lower-cases each character at random (the matcher must ignore case as the reference does). */
const recase = (rand: () => number, text: string) => [...text].map((ch) => (rand() < 0.5 ? ch.toUpperCase() : ch.toLowerCase())).join('');

// Field values in both cases; search texts as admins write them (ASCII of 3 and more, which the one-pass scan
// takes) and those the scan hands to the grouped expression (short, beyond ASCII, with the folds of U+017F and
// U+212A, expression syntax); texts inside, prefixes of and overlapping one another.
const TYPES = ['AntiCheat', 'anticheat', 'Chat', 'General', 'Money'];
const RESOURCES = ['qb-core', 'QB-Core', 'chat', 'es_extended', 'ox_inventory'];
const LEVELS = ['info', 'warn', 'error', 'fatal', 'debug'] as const;
const SEARCHES = ['hack', 'speed hack', 'hack (', 'joined', 'was killed by', 'sus', 'd hack s', 'noclip', 'kick', 'ab', 'x', 'straße', 'ſus', 'Kick', 'é', '😀', '.*', 'inventory error'];
/** The texts the one-pass scan takes when a set's searches alone are all of them (ASCII, 3 characters and more). */
const ASCII_SEARCHES = SEARCHES.filter((t) => t.length >= 3 && /^[\x20-\x7e]+$/.test(t));
const KEYS = ['citizenid', 'source', 'job', 'webhook'];
const VALUES = ['ABC1', 'abc1', '3', 'true', '{"a":1}', 'police'];
const METADATA_VALUES: unknown[] = ['ABC1', 'abc1', 3, '3', true, 'true', { a: 1 }, 'police', null];
const WORDS = [...SEARCHES, 'player', 'the', 'a', 'by', 'money', 'removed', 'error', 'ſ', 'K', 'İ', 'ß', ' ', '(', 'SPEED', 'hac', 'was killed b'];

function filterOf(rand: () => number, searches: readonly string[]): AlertFilter {
  const filter: { -readonly [K in keyof AlertFilter]: AlertFilter[K] } = {};
  if (rand() < 0.3) filter.type = pick(rand, TYPES);
  if (rand() < 0.3) filter.resource = pick(rand, RESOURCES);
  if (rand() < 0.3) filter.level = pick(rand, LEVELS);
  if (rand() < 0.5) filter.search = pick(rand, searches);
  if (rand() < 0.25) {
    const metadata: Record<string, string> = {};
    const entries = 1 + Math.floor(rand() * 2);
    for (let i = 0; i < entries; i++) metadata[pick(rand, KEYS)] = pick(rand, VALUES);
    filter.metadata = metadata;
  }
  return filter;
}

function logOf(rand: () => number, id: number) {
  let message = '';
  const words = Math.floor(rand() * 8);
  for (let i = 0; i < words; i++) message += (i > 0 && rand() < 0.7 ? ' ' : '') + recase(rand, pick(rand, WORDS));
  let metadata: Record<string, unknown> | null = null;
  if (rand() < 0.6) {
    metadata = {};
    for (const key of KEYS) if (rand() < 0.5) metadata[key] = pick(rand, METADATA_VALUES);
  }
  return { id, type: recase(rand, pick(rand, TYPES)), resource: pick(rand, RESOURCES), level: pick(rand, LEVELS), message, metadata };
}

describe('the rule matcher against each filter tested on its own', () => {
  it('finds, for thousands of generated rules and logs, the count and the last logs each rule would find alone', () => {
    const rand = random(34);
    let compared = 0;
    for (let set = 0; set < 40; set++) {
      const sampleSize = 1 + Math.floor(rand() * 5);
      const rules = Array.from({ length: 1 + Math.floor(rand() * 100) }, (_, i) => ({ id: `s${set}r${i}`, filter: filterOf(rand, set % 2 === 0 ? ASCII_SEARCHES : SEARCHES) }));
      const matcher = createRuleMatcher(rules, sampleSize);
      // Several calls on one matcher: each starts from the tallies and remembered triples the last one left.
      for (let call = 0; call < 4; call++) {
        const logs = Array.from({ length: Math.floor(rand() * 150) }, (_, i) => logOf(rand, i));
        const found = new Map(matcher.match(logs).flatMap((m) => m.rules.map((rule) => [rule, m] as const)));
        for (const rule of rules) {
          const expected = logs.filter((log) => alertMatches(rule.filter, log));
          const got = found.get(rule);
          const where = `${JSON.stringify(rule.filter)}, set ${set}, call ${call}`;
          if (expected.length === 0) expect(got, where).toBeUndefined();
          else {
            expect(got?.count, where).toBe(expected.length);
            expect(got?.sample(logs).map((l) => l.id), where).toEqual(expected.slice(-sampleSize).map((l) => l.id));
          }
          compared += logs.length;
        }
      }
    }
    // The generator reaches a real number of (rule, log) pairs, not a degenerate few.
    expect(compared).toBeGreaterThan(200_000);
  });
});
