import { describe, expect, it } from 'vitest';
import { StringIndex, TripleMemo } from '../src/domain/alerts/alert-lookups.ts';

/** A string equal to `text` but a new object, as a log's field is (parsed anew for every log). */
const fresh = (text: string) => JSON.parse(JSON.stringify(text)) as string;

describe('the memo of (type, resource, level) triples', () => {
  it('works a triple out once and answers it again for equal strings, whatever the objects', () => {
    const memo = new TripleMemo<string>(100);
    let computed = 0;
    const compute = (type: string, resource: string, level: string) => {
      computed += 1;
      return `${type}/${resource}/${level}`;
    };
    expect(memo.get('RemoveMoney', 'qb-core', 'info', compute)).toBe('RemoveMoney/qb-core/info');
    expect(memo.get(fresh('RemoveMoney'), fresh('qb-core'), fresh('info'), compute)).toBe('RemoveMoney/qb-core/info');
    expect(computed).toBe(1);
  });

  it('tells apart triples that differ in one field only, with few and with many pairs per type', () => {
    const memo = new TripleMemo<string>(10_000);
    const compute = (type: string, resource: string, level: string) => `${type}/${resource}/${level}`;
    const types = ['Chat', 'ox_inventory_log', 'chat'];
    // 30 resources x 5 levels for each type: past the few pairs a type's list compares, it keeps a map of resources.
    const resources = Array.from({ length: 30 }, (_, i) => `resource-${i}`);
    const levels = ['debug', 'info', 'warn', 'error', 'fatal'];
    for (let pass = 0; pass < 2; pass++) {
      for (const type of types) {
        for (const resource of resources) {
          for (const level of levels) expect(memo.get(fresh(type), fresh(resource), fresh(level), compute)).toBe(`${type}/${resource}/${level}`);
        }
      }
    }
  });

  it('forgets everything once it holds its maximum, then works triples out again', () => {
    const memo = new TripleMemo<number>(3);
    let computed = 0;
    const compute = () => ++computed;
    for (const type of ['a', 'b', 'c']) memo.get(type, 'r', 'info', compute);
    expect(memo.get('a', 'r', 'info', compute)).toBe(1);
    // A fourth type finds the memo full: all is forgotten, and 'a' is worked out anew.
    expect(memo.get('d', 'r', 'info', compute)).toBe(4);
    expect(memo.get('a', 'r', 'info', compute)).toBe(5);
    expect(computed).toBe(5);
  });
});

describe('the index of known strings', () => {
  it('finds a known string, whatever the object, and nothing for others, with few or many known strings', () => {
    for (const size of [1, 8, 9, 50]) {
      const known = new Map(Array.from({ length: size }, (_, i) => [`value-${i}`, i] as const));
      const index = new StringIndex(known);
      for (let i = 0; i < size; i++) expect(index.get(fresh(`value-${i}`))).toBe(i);
      expect(index.get('value-')).toBeUndefined();
      expect(index.get(`value-${size}`)).toBeUndefined();
      expect(index.get('')).toBeUndefined();
    }
  });
});
