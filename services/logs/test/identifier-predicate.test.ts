/**
 * The screens link a metadata string to a player with contracts' identifierOf; the service records what
 * identifiersIn finds. For a string that is exactly one identifier they must agree, or a link would lead
 * to a player the service never recorded (or miss one it did).
 */
import { identifierOf } from '@skald/contracts';
import { describe, expect, it } from 'vitest';
import { identifiersIn } from '../src/domain/identity/identifiers.ts';

const SAMPLES = [
  'license:abc123',
  'LICENSE:abc123',
  'License2:ABC',
  'discord:123456789',
  'steam:110000100000001',
  'fivem:42',
  'xbl:2535',
  'live:1234',
  'ip:127.0.0.1',
  'token:3:abcdef',
  'discord:license:abc',
  'license:a.b',
  'license:a\\b',
  'license:',
  'license:abc.',
  'license:abc:',
  'license:abc!',
  'license:ab c',
  'license:ab,c',
  'license:a(b)',
  'license:a"b',
  'license:abé',
  'license:ab\u0000c',
  'license:abc\u0007',
  'steamid:1',
  ':abc',
  'licence:abc',
  `license:${'a'.repeat(120)}`,
  `license:${'a'.repeat(121)}`,
];

describe('identifierOf agrees with the extraction', () => {
  it.each(SAMPLES)('%j', (text) => {
    const found = identifiersIn(text);
    const extractedWhole = found.length === 1 && found[0]!.length === text.length ? found[0]! : null;
    expect(identifierOf(text)).toBe(extractedWhole);
  });
});
