/**
 * Deeply nested `metadata`: refused with a 400 naming the field, before any recursive
 * serialiser can overflow the stack. A 5xx here would be retried by game plugins for ever.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fc from 'fast-check';
import { LOG_LIMITS } from '@skald/contracts';
import { InvalidFieldError, parseLogBody } from '../src/domain/log-input.ts';
import { METADATA_MAX_DEPTH, metadataShape } from '../src/domain/metadata-shape.ts';
import { harnessWithServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { form } from './support/photo-forms.ts';

const KEY = 'sk_deep_key_0123456789abcdef';
const SERVER = 'srv-deep';

/** JSON text of metadata nested `levels` deep (the object itself is level 1), arrays inside so it stays short. */
function nestedMetadataJson(levels: number): string {
  return `{"a":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
}

/** The same depth built as a value (never through recursion), for the unit test. */
function nestedMetadata(levels: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let node: Record<string, unknown> = root;
  for (let level = 2; level <= levels; level++) {
    const child: Record<string, unknown> = {};
    node['k'] = child;
    node = child;
  }
  return root;
}

function refusal(fn: () => unknown): InvalidFieldError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvalidFieldError) return error;
    throw error;
  }
  throw new Error('expected InvalidFieldError');
}

describe('metadata nesting limit (unit)', () => {
  it(`accepts ${METADATA_MAX_DEPTH} levels and refuses one more, naming metadata`, () => {
    expect(parseLogBody({ message: 'm', metadata: nestedMetadata(METADATA_MAX_DEPTH) }).logs).toHaveLength(1);
    const error = refusal(() => parseLogBody({ message: 'm', metadata: nestedMetadata(METADATA_MAX_DEPTH + 1) }));
    expect(error.field).toBe('metadata');
    expect(error.reason).toBe(`must nest objects and arrays at most ${METADATA_MAX_DEPTH} levels deep`);
  });

  it('refuses 100,000 levels without overflowing the stack', () => {
    expect(refusal(() => parseLogBody([{ message: 'ok' }, { message: 'm', metadata: nestedMetadata(100_000) }])).field).toBe('[1].metadata');
  });

  it('stops walking a value too wide to fit the size limit (each value is at least one character of JSON)', () => {
    const wide = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, 0]));
    expect(metadataShape(wide)).toBe('size');
    expect(refusal(() => parseLogBody({ message: 'm', metadata: wide })).field).toBe('metadata');
  });
});

describe('metadata size limit, decided by a bound before any serialising (unit)', () => {
  const LIMIT = LOG_LIMITS.maxMetadataLength;
  const accepted = (metadata: Record<string, unknown>): boolean => {
    try {
      parseLogBody({ message: 'm', metadata });
      return true;
    } catch (error) {
      if (error instanceof InvalidFieldError && error.field === 'metadata') return false;
      throw error;
    }
  };

  it('accepts exactly the values whose JSON is at most the limit, and says "fits" only when it surely is', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), (metadata) => {
        const length = JSON.stringify(metadata).length;
        if (metadataShape(metadata) === 'fits') expect(length).toBeLessThanOrEqual(LIMIT);
        expect(accepted(metadata)).toBe(length <= LIMIT);
      }),
      { numRuns: 300 },
    );
  });

  it('measures near the limit: plain text to the character, control characters as their six-character escapes', () => {
    // {"k":"…"} is 8 characters around the text.
    expect(accepted({ k: 'x'.repeat(LIMIT - 8) })).toBe(true);
    expect(accepted({ k: 'x'.repeat(LIMIT - 7) })).toBe(false);
    const escapes = Math.floor((LIMIT - 8) / 6);
    expect(accepted({ k: '\u0001'.repeat(escapes) })).toBe(true);
    expect(accepted({ k: '\u0001'.repeat(escapes + 1) })).toBe(false);
    expect(metadataShape({ k: 'x'.repeat(LIMIT - 8) })).toBe('measure');
  });

  it('bounds tightly where JSON has no keys: an array of the longest numbers, one over the limit, is never "fits"', () => {
    // {"a":[…]} around N numbers of 25 characters and N - 1 commas: 26 N + 7. The bound counts 26 N + 12.
    const numbers = (count: number) => ({ a: new Array<number>(count).fill(-0.0000012345678901234567) });
    const most = Math.floor((LIMIT - 7) / 26);
    expect(metadataShape(numbers(most - 1))).toBe('fits');
    expect(accepted(numbers(most))).toBe(true);
    expect(JSON.stringify(numbers(most + 1)).length).toBeGreaterThan(LIMIT);
    expect(metadataShape(numbers(most + 1))).not.toBe('fits');
    expect(accepted(numbers(most + 1))).toBe(false);
  });

  it('says "fits" for a typical flat map, and measures a map of the longest numbers JSON writes exactly', () => {
    expect(metadataShape({ player: 'Ann', ping: 42, admin: false, note: null, pos: [1.5, -2, 3] })).toBe('fits');
    // -0.0000012345678901234567 is 25 characters of JSON: with its key "k0000", 34 characters a member.
    const longNumbers = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${String(i).padStart(4, '0')}`, -0.0000012345678901234567]));
    const within = Math.floor((LIMIT - 1) / 34);
    expect(JSON.stringify(longNumbers(within)).length).toBeLessThanOrEqual(LIMIT);
    expect(JSON.stringify(longNumbers(within + 1)).length).toBeGreaterThan(LIMIT);
    expect(accepted(longNumbers(within))).toBe(true);
    expect(accepted(longNumbers(within + 1))).toBe(false);
  });
});

describe('POST /logs and /photologs with deeply nested metadata', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harnessWithServer({ serverId: SERVER, apiKey: KEY });
  });
  afterAll(() => h.close());

  for (const levels of [4_000, 100_000]) {
    it(`answers 400 naming metadata for ${levels} levels, in a single log and in a batch, and stores nothing`, async () => {
      const deep = `{"message":"deep","metadata":${nestedMetadataJson(levels)}}`;
      const bodies = [
        { payload: deep, field: 'metadata' },
        { payload: `[{"message":"fine"},${deep}]`, field: '[1].metadata' },
      ];
      for (const { payload, field } of bodies) {
        const res = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, payload });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ field, message: expect.stringContaining('levels deep') });
      }
      expect(h.bus.published).toHaveLength(0);
      expect(await h.quotaUsed(SERVER)).toBe(0);
    });
  }

  it('answers 400 naming metadata for a photo log whose metadata string nests 4,000 levels', async () => {
    const photo = Buffer.from('not decoded: the fields are refused first');
    const { payload, headers } = form(
      [
        { name: 'metadata', value: nestedMetadataJson(4_000) },
        { name: 'photo', filename: 'p.png', type: 'image/png', data: photo },
      ],
      KEY,
    );
    const res = await h.inject({ method: 'POST', url: '/photologs', headers, payload });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ field: 'metadata' });
    expect(await h.objectKeys()).toEqual([]);
    expect(h.bus.published).toHaveLength(0);
  });

  it('fuzz: any nesting of objects and arrays, 1 to 200,000 levels, answers 201 up to the limit and 400 beyond, never 5xx', async () => {
    const opener = fc.constantFrom('[', '{"k":');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 200_000 }), fc.array(opener, { minLength: 1, maxLength: 8 }), async (levels, pattern) => {
        // Level 1 is the metadata object; the levels below cycle through the pattern of openers.
        const openers = Array.from({ length: levels - 1 }, (_, i) => pattern[i % pattern.length]!);
        const closers = openers.map((o) => (o === '[' ? ']' : '}')).reverse();
        const payload = `{"message":"fuzz","metadata":{"a":${openers.join('')}1${closers.join('')}}}`;
        const res = await h.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, payload });
        expect(res.statusCode, res.body).toBeLessThan(500);
        if (levels > METADATA_MAX_DEPTH) expect(res.json()).toMatchObject({ field: 'metadata' });
        else expect(res.statusCode, res.body).toBe(201);
      }),
      { numRuns: 60 },
    );
  });
});
