/** The keys of the batches the alert evaluator counted: per server, the latest `max` across servers kept. */
import { describe, expect, it } from 'vitest';
import { SeenKeys } from '../src/domain/alerts/alert-seen-keys.ts';

describe('the counted batch keys', () => {
  it('keeps keys per server and forgets the oldest of all servers first once full', () => {
    const seen = new SeenKeys(3);
    const a = seen.of('a');
    const b = seen.of('b');
    seen.remember('a', a, 'k1');
    seen.remember('b', b, 'k1');
    seen.remember('a', a, 'k2');
    // The same key of another server is another batch; a key remembered again does not push one out.
    seen.remember('a', a, 'k1');
    expect([...a]).toEqual(['k1', 'k2']);
    expect([...b]).toEqual(['k1']);

    seen.remember('b', b, 'k3');
    expect(a.has('k1')).toBe(false);
    expect([...seen.of('a')]).toEqual(['k2']);
    seen.remember('a', seen.of('a'), 'k4');
    // b's k1 was the oldest left.
    expect(seen.of('b').has('k1')).toBe(false);
    expect(seen.of('b').has('k3')).toBe(true);
    expect([...seen.of('a')]).toEqual(['k2', 'k4']);
  });

  it("drops a server's set once all its keys are forgotten, and starts a new one when it comes back", () => {
    const seen = new SeenKeys(2);
    const a = seen.of('a');
    seen.remember('a', a, 'k1');
    seen.remember('b', seen.of('b'), 'k1');
    seen.remember('b', seen.of('b'), 'k2');
    expect(a.size).toBe(0);
    const again = seen.of('a');
    expect(again).not.toBe(a);
    expect(again.size).toBe(0);
  });
});
