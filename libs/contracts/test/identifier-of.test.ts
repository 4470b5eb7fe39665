/** identifierOf: a string that is exactly one identifier, as the player view records it (docs/PLAYERS.md). */
import { describe, expect, it } from 'vitest';
import { IDENTIFIER_KINDS, MAX_IDENTIFIER_LENGTH, identifierOf } from '../src/api/index.ts';

describe('identifierOf', () => {
  it('takes every known kind in any case, answering the kind lower case and the value as written', () => {
    for (const kind of IDENTIFIER_KINDS) expect(identifierOf(`${kind.toUpperCase()}:AbC123`)).toBe(`${kind}:AbC123`);
    expect(identifierOf('license2:abc')).toBe('license2:abc');
    expect(identifierOf('discord:license:abc')).toBe('discord:license:abc');
  });

  it('refuses unknown kinds, empty values and missing kinds', () => {
    for (const text of ['steamid:1', 'license:', ':abc', 'license', 'licence:abc', ' license:abc', 'x license:abc']) expect(identifierOf(text), text).toBeNull();
  });

  it('refuses control, non-ASCII and white space characters, separators and trailing sentence punctuation', () => {
    for (const text of ['license:ab\u0000c', 'license:abc\n', 'license:ab c', 'license:abé', 'license:a,b', 'license:a(b)', 'license:abc.', 'license:abc!', 'license:a"b'])
      expect(identifierOf(text), JSON.stringify(text)).toBeNull();
    expect(identifierOf('license:a.b')).toBe('license:a.b');
  });

  it('refuses more than MAX_IDENTIFIER_LENGTH characters', () => {
    const fits = `license:${'a'.repeat(MAX_IDENTIFIER_LENGTH - 'license:'.length)}`;
    expect(identifierOf(fits)).toBe(fits);
    expect(identifierOf(`${fits}a`)).toBeNull();
  });
});
