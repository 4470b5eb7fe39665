/**
 * The players one log names: its identifiers grouped by where they were seen (docs/PLAYERS.md,
 * "Grouping"). Pure: the same log always gives the same groups, so erasure can find a log's players again.
 *   - one group per metadata object: its own strings and the strings of its arrays, at any depth of arrays;
 *   - a nested object (also inside an array) is a group of its own: `victim: {…}`, `killer: {…}`;
 *   - the message text belongs to the top-level group;
 *   - a text (a string that is more than one identifier: `Bob (license:b)`, the message) joins its group
 *     unless the group would then hold two different identifiers of one linking kind: Discord-shaped
 *     `fields: { Killer: "Bob license:b", Victim: "Alice license:a" }` names two players, not one with two
 *     licenses. A text naming two such identifiers itself (`A (license:a) killed B (license:b)`) leaves
 *     each standing alone. Identifiers written as values of their own (`license: "license:a"`, an
 *     `identifiers` array) always join their group: that is the log's own grouping;
 *   - groups of one log sharing a linking identifier are one player; a group without a linking identifier
 *     (only `ip`/`token`) is no player;
 *   - a name (keys NAME_KEYS, a string) belongs to its object's group; in an object without identifiers,
 *     to the log's only player when there is exactly one.
 */
import { PLAYER_NAME_KEYS } from '@skald/contracts';
import { identifiersIn, isLinking, kindOf, wholeIdentifier } from './identifiers.ts';

/** One player a log names. */
export interface PlayerGroup {
  /** Identifiers that make the player and join players (`license:…`, `discord:…`), unique, at least one. */
  readonly linking: readonly string[];
  /** `ip:` and `token:` identifiers seen with it, unique. */
  readonly listed: readonly string[];
  /** Names seen with it, unique, as written (trimmed). */
  readonly names: readonly string[];
}

export const NAME_KEYS: ReadonlySet<string> = new Set(PLAYER_NAME_KEYS);

/** Names longer than this are not names (a message put under `name`). */
export const MAX_NAME_LENGTH = 100;

/**
 * Bounds on the work one log may cost (metadata is already limited in size by ingestion): past them the
 * rest of the log is not read for identity.
 */
export const MAX_GROUPS_PER_LOG = 64;
export const MAX_IDENTIFIERS_PER_LOG = 256;

interface RawGroup {
  /** Identifiers written as values of their own. */
  readonly identifiers: string[];
  /** The identifiers of each text of the group. */
  readonly texts: (readonly string[])[];
  readonly names: string[];
}

class Walk {
  readonly groups: RawGroup[] = [];
  identifiers = 0;

  group(): RawGroup | null {
    if (this.groups.length >= MAX_GROUPS_PER_LOG) return null;
    const group: RawGroup = { identifiers: [], texts: [], names: [] };
    this.groups.push(group);
    return group;
  }

  text(text: string, into: RawGroup): void {
    const room = MAX_IDENTIFIERS_PER_LOG - this.identifiers;
    if (room <= 0) return;
    // Most strings holding an identifier are exactly one (an `identifiers` array, `license: "license:…"`).
    const whole = wholeIdentifier(text);
    if (whole !== null) {
      this.identifiers++;
      into.identifiers.push(whole);
      return;
    }
    const found = identifiersIn(text);
    if (found.length === 0) return;
    const taken = found.length > room ? found.slice(0, room) : found;
    this.identifiers += taken.length;
    if (taken.length === 1 && text.trim().length === taken[0]!.length) into.identifiers.push(taken[0]!);
    else into.texts.push(taken);
  }

  object(object: Readonly<Record<string, unknown>>, into: RawGroup): void {
    for (const key in object) {
      const value = object[key];
      if (typeof value === 'string') {
        if (NAME_KEYS.has(key)) {
          const name = nameOf(value);
          if (name !== null) into.names.push(name);
        }
        this.text(value, into);
      } else if (typeof value === 'object' && value !== null) {
        this.nested(value, into);
      }
    }
  }

  array(array: readonly unknown[], into: RawGroup): void {
    for (const value of array) {
      if (typeof value === 'string') this.text(value, into);
      else if (typeof value === 'object' && value !== null) this.nested(value, into);
    }
  }

  /** Arrays join the group they are in; objects start their own. */
  private nested(value: object, into: RawGroup): void {
    if (Array.isArray(value)) {
      this.array(value, into);
      return;
    }
    const own = this.group();
    if (own !== null) this.object(value as Readonly<Record<string, unknown>>, own);
  }
}

/** Two different identifiers of one linking kind among these: several players, not one with two accounts. */
function namesSeveralPlayers(identifiers: readonly string[]): boolean {
  if (identifiers.length < 2) return false;
  const byKind = new Map<string, string>();
  for (const identifier of identifiers) {
    if (!isLinking(identifier)) continue;
    const kind = kindOf(identifier);
    const seen = byKind.get(kind);
    if (seen !== undefined && seen !== identifier) return true;
    byKind.set(kind, identifier);
  }
  return false;
}

function nameOf(value: string): string | null {
  const name = value.trim();
  // eslint-disable-next-line no-control-regex -- a name with control characters is not shown as one
  if (name === '' || name.length > MAX_NAME_LENGTH || /[\u0000-\u001f\u007f-\u009f]/.test(name)) return null;
  // A bare identifier under `player` is an identifier, not a name.
  return identifiersIn(name).length === 1 && !/\s/.test(name) ? null : name;
}

/** The players `(message, metadata)` names, in order of first appearance. */
export function extractPlayers(message: string, metadata: Readonly<Record<string, unknown>> | null): PlayerGroup[] {
  const walk = new Walk();
  const top = walk.group()!;
  walk.text(message, top);
  if (metadata !== null) walk.object(metadata, top);
  if (walk.identifiers === 0) return [];
  const flat: FlatGroup[] = [];
  for (const group of walk.groups) {
    if (group.texts.length === 0) flat.push(group);
    else flat.push(...withTexts(group));
  }
  return playersOf(flat);
}

interface FlatGroup {
  readonly identifiers: readonly string[];
  readonly names: readonly string[];
}

/** A group with its texts joined in, or the texts apart when joining them would name several players (header). */
function withTexts(group: RawGroup): FlatGroup[] {
  if (group.texts.length === 0) return [group];
  const all = [...group.identifiers, ...group.texts.flat()];
  if (!namesSeveralPlayers(all)) return [{ identifiers: all, names: group.names }];
  const apart: FlatGroup[] = [{ identifiers: group.identifiers, names: group.names }];
  for (const text of group.texts) {
    if (namesSeveralPlayers(text)) for (const identifier of text) apart.push({ identifiers: [identifier], names: [] });
    else apart.push({ identifiers: text, names: [] });
  }
  return apart;
}

/** A player being gathered from a log's groups: small lists (a log names a few identifiers), kept unique. */
interface Gathered {
  readonly linking: string[];
  readonly listed: string[];
  readonly names: string[];
}

function addUnique(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value);
}

/**
 * Groups sharing a linking identifier joined; groups without one dropped, their names given as the header
 * says. Lists and linear searches, not sets and maps: a log's groups hold a few identifiers each, and this
 * runs for every log naming several players (a victim and a killer).
 */
function playersOf(groups: readonly FlatGroup[]): PlayerGroup[] {
  const single = onlyGroupWithIdentifiers(groups);
  if (single !== undefined) return single === null ? [] : onePlayer(single, groups);
  const players: Gathered[] = [];
  const orphanNames: string[] = [];
  for (const group of groups) {
    let target = -1;
    let linked = false;
    // The earliest player already holding one of the group's linking identifiers; others holding one join it.
    for (const identifier of group.identifiers) {
      if (!isLinking(identifier)) continue;
      linked = true;
      for (let p = 0; p < players.length; p++) {
        if (players[p]!.linking.includes(identifier) && (target < 0 || p < target)) target = p;
      }
    }
    if (!linked) {
      orphanNames.push(...group.names);
      continue;
    }
    if (target < 0) target = players.push({ linking: [], listed: [], names: [] }) - 1;
    const player = players[target]!;
    for (let p = target + 1; p < players.length; p++) {
      const other = players[p]!;
      if (other.linking.length === 0 || !group.identifiers.some((identifier) => other.linking.includes(identifier))) continue;
      for (const identifier of other.linking) addUnique(player.linking, identifier);
      for (const identifier of other.listed) addUnique(player.listed, identifier);
      for (const name of other.names) addUnique(player.names, name);
      other.linking.length = 0;
    }
    for (const identifier of group.identifiers) addUnique(isLinking(identifier) ? player.linking : player.listed, identifier);
    for (const name of group.names) addUnique(player.names, name);
  }
  const named = players.filter((player) => player.linking.length > 0);
  if (named.length === 1) for (const name of orphanNames) addUnique(named[0]!.names, name);
  return named;
}

/** The one group holding identifiers (the common log: one player); null when none does, undefined when several do. */
function onlyGroupWithIdentifiers(groups: readonly FlatGroup[]): FlatGroup | null | undefined {
  let found: FlatGroup | null = null;
  for (const group of groups) {
    if (group.identifiers.length === 0) continue;
    if (found !== null) return undefined;
    found = group;
  }
  return found;
}

/** playersOf for a log whose identifiers are all in one group: no joining to do, small lists deduplicated in place. */
function onePlayer(group: FlatGroup, groups: readonly FlatGroup[]): PlayerGroup[] {
  const linking: string[] = [];
  const listed: string[] = [];
  for (const identifier of group.identifiers) {
    const into = isLinking(identifier) ? linking : listed;
    if (!into.includes(identifier)) into.push(identifier);
  }
  if (linking.length === 0) return [];
  const names: string[] = [];
  // Its own names, then (the log's only player) the names of objects without identifiers.
  for (const name of group.names) if (!names.includes(name)) names.push(name);
  for (const other of groups) {
    if (other === group) continue;
    for (const name of other.names) if (!names.includes(name)) names.push(name);
  }
  return [{ linking, listed, names }];
}
