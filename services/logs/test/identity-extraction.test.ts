import { describe, expect, it } from 'vitest';
import { IDENTIFIER_KINDS, MAX_IDENTIFIER_LENGTH } from '@skald/contracts';
import { identifiersIn, isLinking, mayHoldIdentifier, wholeIdentifier } from '../src/domain/identity/identifiers.ts';
import { MAX_GROUPS_PER_LOG, extractPlayers } from '../src/domain/identity/extract-players.ts';
import type { PlayerGroup } from '../src/domain/identity/extract-players.ts';

const LICENSE_A = 'license:1f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c';
const LICENSE_B = 'license:aaaabbbbccccddddeeeeffff0000111122223333';
const DISCORD = 'discord:123456789012345678';
const STEAM = 'steam:110000112345678';

/** Groups in a comparable form: each list sorted, groups by their first linking identifier. */
function sorted(groups: readonly PlayerGroup[]): PlayerGroup[] {
  return groups
    .map((group) => ({ linking: [...group.linking].sort(), listed: [...group.listed].sort(), names: [...group.names].sort() }))
    .sort((a, b) => a.linking[0]!.localeCompare(b.linking[0]!));
}

describe('identifiers in a text', () => {
  it('reads every known kind, the kind lower case and the value as written', () => {
    const kinds = ['license', 'license2', 'discord', 'steam', 'fivem', 'xbl', 'live', 'ip', 'token'];
    for (const kind of kinds) {
      expect(identifiersIn(`${kind.toUpperCase()}:AbC123`)).toEqual([`${kind}:AbC123`]);
      expect(identifiersIn(`${kind}:AbC123`)).toEqual([`${kind}:AbC123`]);
    }
  });

  it('finds identifiers inside longer texts, cut at spaces and the punctuation around them', () => {
    expect(identifiersIn(`John (${LICENSE_A}) joined with ${DISCORD}.`)).toEqual([LICENSE_A, DISCORD]);
    expect(identifiersIn(`**Killer:** **${STEAM}**, "${DISCORD}"`)).toEqual([STEAM, DISCORD]);
    expect(identifiersIn(`ids=[${LICENSE_A};ip:10.0.0.1]`)).toEqual([LICENSE_A, 'ip:10.0.0.1']);
    expect(identifiersIn(`line one\n${LICENSE_A}\ttab`)).toEqual([LICENSE_A]);
  });

  it('keeps the colons of a token and the dots of an ip', () => {
    expect(identifiersIn('token:3:91b99996378cd5b16ec214d54e850d5f265524a84620671ee34d594bdb7e0c2e')).toEqual([
      'token:3:91b99996378cd5b16ec214d54e850d5f265524a84620671ee34d594bdb7e0c2e',
    ]);
    expect(identifiersIn('from ip:192.168.1.20')).toEqual(['ip:192.168.1.20']);
  });

  it('does not read unknown kinds, kinds inside a word, or an empty value', () => {
    expect(identifiersIn('twitch:abc mylicense:abc xlive:1 license: abc license:')).toEqual([]);
    expect(identifiersIn('no colon at all')).toEqual([]);
  });

  it('takes license2 as its own kind', () => {
    expect(identifiersIn('license2:abc')).toEqual(['license2:abc']);
  });

  it(`refuses an identifier longer than ${MAX_IDENTIFIER_LENGTH} characters, and takes one of exactly that length`, () => {
    const longest = `license:${'a'.repeat(MAX_IDENTIFIER_LENGTH - 'license:'.length)}`;
    expect(identifiersIn(longest)).toEqual([longest]);
    expect(identifiersIn(`${longest}a`)).toEqual([]);
    expect(identifiersIn(`John ${longest}b joined`)).toEqual([]);
  });

  it('refuses identifiers with control characters (not a shorter one cut at the character)', () => {
    expect(identifiersIn('license:abc\u0000def')).toEqual([]);
    expect(identifiersIn('license:abc\u0007')).toEqual([]);
    expect(identifiersIn('license:abc\n')).toEqual([]);
    expect(identifiersIn('\tdiscord:12\r')).toEqual([]);
    expect(identifiersIn('killed by license:abc\u001bdef')).toEqual([]);
    expect(identifiersIn('license:ab\u0085c')).toEqual([]);
  });

  it('refuses non-ASCII values', () => {
    expect(identifiersIn('license:abcé')).toEqual([]);
  });

  it('tells linking kinds from ip and token', () => {
    expect(isLinking(LICENSE_A)).toBe(true);
    expect(isLinking(DISCORD)).toBe(true);
    expect(isLinking('ip:1.2.3.4')).toBe(false);
    expect(isLinking('token:2:abc')).toBe(false);
  });
});

describe('a text that is exactly one identifier (the fast path)', () => {
  it('answers what identifiersIn finds for a whole identifier, and null for anything else', () => {
    const texts = [
      'license:abc', 'LICENSE2:AbC', 'discord:123', 'ip:10.0.0.1', 'token:3:91b9', 'steam:1100001abc', 'live:x', 'xbl:y', 'fivem:7',
      'license:', 'license:abc.', 'license:ab?', ' license:abc', 'license:abc ', 'license:a b', 'license:a,b', 'license:a(b', 'li\u0012:abc',
      'license\u0012:abc', 'license:abc\u0000', 'license:ab\u00e9', 'licence:abc', 'x:abc', 'license', `license:${'a'.repeat(MAX_IDENTIFIER_LENGTH)}`,
      `license:${'a'.repeat(MAX_IDENTIFIER_LENGTH - 'license:'.length)}`, 'kind:license:abc', '=license:abc',
    ];
    for (const text of texts) {
      const whole = wholeIdentifier(text);
      const found = identifiersIn(text);
      if (whole !== null) expect(found, text).toEqual([whole]);
      else expect(found.length === 1 && found[0]!.length === text.length, text).toBe(false);
    }
    expect(texts.filter((text) => wholeIdentifier(text) !== null)).toHaveLength(10);
  });
});

describe('the cheap test before parsing', () => {
  it('passes every text holding an identifier of any kind in any case, also as JSON text', () => {
    for (const kind of IDENTIFIER_KINDS) {
      for (const written of [kind, kind.toUpperCase()]) {
        const text = `killed by (${written}:abc)`;
        expect(identifiersIn(text)).toHaveLength(1);
        expect(mayHoldIdentifier(text)).toBe(true);
        expect(mayHoldIdentifier(JSON.stringify({ who: { ids: [`${written}:x"y`] } }))).toBe(true);
      }
    }
  });

  it('refuses text without a kind right before a colon', () => {
    for (const text of ['Server tick 12: 40 vehicles', JSON.stringify({ license: 'abc', steam: 7, note: 'ip 1.2.3.4' }), '']) expect(mayHoldIdentifier(text)).toBe(false);
  });
});

describe('the players of one log', () => {
  it('groups identifiers side by side in one object, the kind lower case', () => {
    expect(sorted(extractPlayers('Player joined', { license: LICENSE_A.toUpperCase().replace('LICENSE', 'License'), discord: DISCORD, name: 'John' }))).toEqual([
      { linking: [DISCORD, `license:${LICENSE_A.slice(8).toUpperCase()}`], listed: [], names: ['John'] },
    ]);
  });

  it('groups the strings of an array such as GetPlayerIdentifiers gives, at any depth', () => {
    const metadata = { identifiers: [LICENSE_A, [DISCORD, ['ip:10.0.0.7']], STEAM], playerName: 'John' };
    expect(sorted(extractPlayers('joined', metadata))).toEqual([{ linking: [DISCORD, LICENSE_A, STEAM], listed: ['ip:10.0.0.7'], names: ['John'] }]);
  });

  it('finds identifiers at any depth of objects, each object its own player', () => {
    const metadata = { event: { data: { who: { license: LICENSE_A, name: 'Deep' } } } };
    expect(extractPlayers('x', metadata)).toEqual([{ linking: [LICENSE_A], listed: [], names: ['Deep'] }]);
  });

  it('takes identifiers from the message text when there is no metadata, as one player', () => {
    expect(sorted(extractPlayers(`John connected (${LICENSE_A}, ${DISCORD}, ip:1.2.3.4)`, null))).toEqual([
      { linking: [DISCORD, LICENSE_A], listed: ['ip:1.2.3.4'], names: [] },
    ]);
  });

  it('joins the message text to the top-level group, and a top-level name to it', () => {
    expect(sorted(extractPlayers(`joined ${LICENSE_A}`, { name: 'John', discord: DISCORD }))).toEqual([{ linking: [DISCORD, LICENSE_A], listed: [], names: ['John'] }]);
    expect(extractPlayers(`joined ${LICENSE_A}`, { player_name: 'John' })).toEqual([{ linking: [LICENSE_A], listed: [], names: ['John'] }]);
  });

  it('victim and killer in separate objects are two players, each with its name, not linked', () => {
    const metadata = {
      weapon: 'WEAPON_PISTOL',
      location: 'bank',
      victim: { name: 'Alice', identifiers: [LICENSE_A, 'ip:10.0.0.1'] },
      killer: { name: 'Bob', license: LICENSE_B, discord: DISCORD },
    };
    expect(sorted(extractPlayers('Alice was killed by Bob', metadata))).toEqual([
      { linking: [DISCORD, LICENSE_B], listed: [], names: ['Bob'] },
      { linking: [LICENSE_A], listed: ['ip:10.0.0.1'], names: ['Alice'] },
    ]);
  });

  it('from and to are two players too, and objects inside an array are separate', () => {
    expect(sorted(extractPlayers('pay', { from: { license: LICENSE_A }, to: { license: LICENSE_B }, amount: 100 })).map((g) => g.linking)).toEqual([[LICENSE_A], [LICENSE_B]]);
    expect(sorted(extractPlayers('squad', { members: [{ license: LICENSE_A, name: 'A' }, { license: LICENSE_B, name: 'B' }] }))).toEqual([
      { linking: [LICENSE_A], listed: [], names: ['A'] },
      { linking: [LICENSE_B], listed: [], names: ['B'] },
    ]);
  });

  it('a Discord account seen with two licenses in one array joins them (linked accounts)', () => {
    expect(sorted(extractPlayers('joined', { identifiers: [LICENSE_A, LICENSE_B, DISCORD] }))).toEqual([{ linking: [DISCORD, LICENSE_A, LICENSE_B], listed: [], names: [] }]);
  });

  it('one text naming two licenses names two players, not one', () => {
    expect(sorted(extractPlayers(`Alice (${LICENSE_A}) killed Bob (${LICENSE_B})`, null))).toEqual([
      { linking: [LICENSE_A], listed: [], names: [] },
      { linking: [LICENSE_B], listed: [], names: [] },
    ]);
    // The same identifier twice is one player.
    expect(extractPlayers(`${LICENSE_A} hit ${LICENSE_A}`, null)).toEqual([{ linking: [LICENSE_A], listed: [], names: [] }]);
  });

  it('Discord-shaped fields naming killer and victim in texts of one object stay apart', () => {
    const metadata = { fields: { Killer: `Bob (${LICENSE_B}, ${DISCORD})`, Victim: `Alice (${LICENSE_A})` } };
    expect(sorted(extractPlayers('Kill', metadata))).toEqual([
      { linking: [DISCORD, LICENSE_B], listed: [], names: [] },
      { linking: [LICENSE_A], listed: [], names: [] },
    ]);
    expect(extractPlayers('Kill', { description: `Killer: Bob ${LICENSE_B}\nVictim: Alice ${LICENSE_A}` })).toHaveLength(2);
  });

  it('a text joins its object when that names one player only', () => {
    expect(sorted(extractPlayers('x', { license: LICENSE_A, note: `also known as ${DISCORD}`, name: 'John' }))).toEqual([
      { linking: [DISCORD, LICENSE_A], listed: [], names: ['John'] },
    ]);
    // A text naming another license beside the object's own is another player; the name stays with the object's.
    expect(sorted(extractPlayers('x', { license: LICENSE_A, name: 'John', note: `shot by ${LICENSE_B}` }))).toEqual([
      { linking: [LICENSE_A], listed: [], names: ['John'] },
      { linking: [LICENSE_B], listed: [], names: [] },
    ]);
  });

  it('ip and token are listed with the player but never link two players', () => {
    const metadata = { victim: { license: LICENSE_A, ip: 'ip:10.0.0.1', token: 'token:2:abc' }, killer: { license: LICENSE_B, ip: 'ip:10.0.0.1' } };
    expect(sorted(extractPlayers('shared ip', metadata))).toEqual([
      { linking: [LICENSE_A], listed: ['ip:10.0.0.1', 'token:2:abc'], names: [] },
      { linking: [LICENSE_B], listed: ['ip:10.0.0.1'], names: [] },
    ]);
  });

  it('an ip or token alone makes no player, and its name goes nowhere', () => {
    expect(extractPlayers('x', { ip: 'ip:10.0.0.1', name: 'Ghost' })).toEqual([]);
    expect(extractPlayers('token:2:abc', null)).toEqual([]);
  });

  it('joins groups of one log that share an identifier', () => {
    const metadata = { victim: { license: LICENSE_A, name: 'Same' }, killer: { license: LICENSE_A, discord: DISCORD } };
    expect(sorted(extractPlayers('suicide', metadata))).toEqual([{ linking: [DISCORD, LICENSE_A], listed: [], names: ['Same'] }]);
  });

  it('reads names from name, playerName, player_name and player (strings only), only for logs with an identifier', () => {
    for (const key of ['name', 'playerName', 'player_name', 'player']) {
      expect(extractPlayers('x', { [key]: '  John  ', license: LICENSE_A })).toEqual([{ linking: [LICENSE_A], listed: [], names: ['John'] }]);
    }
    expect(extractPlayers('x', { player: 42, license: LICENSE_A })[0]!.names).toEqual([]);
    expect(extractPlayers('x', { nickname: 'John', license: LICENSE_A })[0]!.names).toEqual([]);
    expect(extractPlayers('x', { name: 'John' })).toEqual([]);
  });

  it('a bare identifier under `player` is an identifier, not a name', () => {
    expect(extractPlayers('x', { player: LICENSE_A })).toEqual([{ linking: [LICENSE_A], listed: [], names: [] }]);
  });

  it('gives a name in an object without identifiers to the only player of the log, and to nobody when there are several', () => {
    expect(extractPlayers('x', { name: 'John', data: { license: LICENSE_A } })).toEqual([{ linking: [LICENSE_A], listed: [], names: ['John'] }]);
    const two = extractPlayers('x', { name: 'Who', a: { license: LICENSE_A }, b: { license: LICENSE_B } });
    expect(two.flatMap((group) => group.names)).toEqual([]);
  });

  it('refuses names that are blank, too long or hold control characters', () => {
    for (const name of ['   ', 'x'.repeat(101), 'bad\u0000name']) {
      expect(extractPlayers('x', { name, license: LICENSE_A })[0]!.names).toEqual([]);
    }
  });

  it('skips identifiers over the length limit or with control characters, keeping the rest of the log', () => {
    const metadata = { license: `license:${'a'.repeat(130)}`, discord: 'discord:12\u0000', steam: STEAM };
    expect(extractPlayers('x', metadata)).toEqual([{ linking: [STEAM], listed: [], names: [] }]);
  });

  it('ignores numbers, booleans, nulls and keys, and logs without identifiers', () => {
    expect(extractPlayers('plain text', { a: 1, b: true, c: null, 'license:abc': 'value' })).toEqual([]);
    expect(extractPlayers('plain text', null)).toEqual([]);
  });

  it('bounds the players of one log', () => {
    const many = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i}`, { license: `license:${i}` }]));
    expect(extractPlayers('x', many).length).toBeLessThan(MAX_GROUPS_PER_LOG);
  });

  it('is deterministic: the same log gives the same groups in the same order', () => {
    const metadata = { killer: { license: LICENSE_B }, victim: { license: LICENSE_A }, text: `${DISCORD}` };
    expect(extractPlayers('x', metadata)).toEqual(extractPlayers('x', structuredClone(metadata)));
  });

  it('reads deep-frozen metadata (the all-in-one hands the bus payload itself)', () => {
    const metadata = Object.freeze({ identifiers: Object.freeze([LICENSE_A, DISCORD]) });
    expect(extractPlayers('x', metadata)).toHaveLength(1);
  });
});
