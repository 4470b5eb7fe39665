/**
 * HTTP answer shapes of the player view (the logs service, docs/PLAYERS.md): players are the groups of
 * game identifiers (`license:…`, `discord:…`) seen together in logs, with the names seen beside them.
 * Times are ISO 8601 UTC and are log times (a log's `created_at`). Every field listed is sent on every
 * answer (no optional fields).
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import { ApiLogListSchema } from './logs.ts';
import { IDENTIFIER_KINDS } from '../constants.ts';

export { IDENTIFIER_KINDS, NON_LINKING_IDENTIFIER_KINDS, PLAYER_NAME_KEYS } from '../constants.ts';
export type { IdentifierKind } from '../constants.ts';

/** The longest identifier (kind, colon and value) taken from a log; longer strings are not identifiers. */
export const MAX_IDENTIFIER_LENGTH = 128;

/** GET /players: the most names and identifiers one list row carries (the newest seen); the player page has all. */
export const PLAYER_LIST_ROW_ITEMS = 20;

const isoTime = Type.String({ format: 'date-time' });

/** What a player row and the player page share. */
const playerSummaryFields = {
  /** Stable while the player's group of identifiers only grows (see mergedInto). Opaque: a string of digits today. */
  id: Type.String(),
  /** The name seen last with the player's identifiers; null when no log named the player. */
  name: Type.Union([Type.String(), Type.Null()]),
  /** First and last log time among the player's logs still stored. */
  firstSeen: isoTime,
  lastSeen: isoTime,
  /** Text logs mentioning the player, still stored. */
  logCount: Type.Integer(),
  /** Photo logs mentioning the player, still stored. */
  photoCount: Type.Integer(),
};

/**
 * One row of GET /players: `names` and `identifiers` are plain strings, newest seen first, at most
 * PLAYER_LIST_ROW_ITEMS of each (identifiers as `<kind>:<value>`, kind lower case).
 */
export const PlayerRowSchema = Type.Object(
  {
    ...playerSummaryFields,
    names: Type.Array(Type.String()),
    identifiers: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export type PlayerRow = Static<typeof PlayerRowSchema>;

/**
 * GET /players?serverId=&search=&page=&limit=: newest `lastSeen` first. `search` matches a name
 * (case-insensitive, contains) or an identifier (exact `license:abc…`, or its value `abc…` without the kind).
 * `total` counts every player matching (all pages).
 */
export const PlayerListSchema = Type.Object(
  { players: Type.Array(PlayerRowSchema), total: Type.Integer() },
  { additionalProperties: false },
);
export type PlayerList = Static<typeof PlayerListSchema>;

export const PlayerNameSeenSchema = Type.Object(
  { name: Type.String(), firstSeen: isoTime, lastSeen: isoTime },
  { additionalProperties: false },
);
export type PlayerNameSeen = Static<typeof PlayerNameSeenSchema>;

export const PlayerIdentifierSeenSchema = Type.Object(
  { identifier: Type.String(), firstSeen: isoTime, lastSeen: isoTime },
  { additionalProperties: false },
);
export type PlayerIdentifierSeen = Static<typeof PlayerIdentifierSeenSchema>;

/**
 * GET /players/{id} and GET /players/by-identifier/{identifier}: the player with every name and identifier
 * seen, each with its first and last log time, newest `lastSeen` first.
 */
export const PlayerDetailSchema = Type.Object(
  {
    ...playerSummaryFields,
    names: Type.Array(PlayerNameSeenSchema),
    identifiers: Type.Array(PlayerIdentifierSeenSchema),
  },
  { additionalProperties: false },
);
export type PlayerDetail = Static<typeof PlayerDetailSchema>;

/**
 * GET /players/{id} of a player that joined an older one (a log showed their identifiers together):
 * 200 with the surviving player's id; ask again with that id. Merges chain: the answer names the survivor
 * of every merge, never an intermediate id.
 */
export const PlayerMergedSchema = Type.Object({ mergedInto: Type.String() }, { additionalProperties: false });
export type PlayerMerged = Static<typeof PlayerMergedSchema>;

/** GET /players/{id}: the player, or where it went. Tell them apart with `'mergedInto' in answer`. */
export const PlayerAnswerSchema = Type.Union([PlayerDetailSchema, PlayerMergedSchema]);
export type PlayerAnswer = Static<typeof PlayerAnswerSchema>;

/**
 * GET /players/{id}/logs?serverId=&before=&limit=&logType=: the logs mentioning the player, newest first
 * (by the log's time, then id), text and photo logs together unless `logType` is `text` or `photo`. Photo
 * logs carry signed image paths as in /photologs/my. `next` is an opaque cursor to pass as `before` for the
 * following page; null on the last page.
 */
export const PlayerLogPageSchema = Type.Object(
  { logs: ApiLogListSchema, next: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);
export type PlayerLogPage = Static<typeof PlayerLogPageSchema>;

/** DELETE /players/{id} (owner): how many logs (text and photo) were erased with the player. */
export const PlayerErasedSchema = Type.Object({ erased: Type.Integer() }, { additionalProperties: false });
export type PlayerErased = Static<typeof PlayerErasedSchema>;

/** Characters that end an identifier inside a text (docs/PLAYERS.md): a string holding one is not one identifier. */
const IDENTIFIER_SEPARATORS = ',;()[]{}<>"\'`|*';

/** Sentence punctuation the extraction drops after an identifier: a string ending in one is not exactly one. */
const IDENTIFIER_TRAILING = '.:!?';

/**
 * `value` as an identifier when the whole string is exactly one (`License:abc` → `license:abc`, the kind lower
 * case, the value as written), else null. The same rule as the logs service's extraction of a string that is
 * nothing but an identifier: a known kind, a non-empty value of printable ASCII without separators, no
 * trailing sentence punctuation, at most MAX_IDENTIFIER_LENGTH characters. Screens use it to link an
 * identifier shown in a log to its player, so it links only what the service recorded.
 */
export function identifierOf(value: string): string | null {
  if (value.length > MAX_IDENTIFIER_LENGTH) return null;
  const colon = value.indexOf(':');
  if (colon <= 0 || colon === value.length - 1) return null;
  const kind = value.slice(0, colon).toLowerCase();
  if (!(IDENTIFIER_KINDS as readonly string[]).includes(kind)) return null;
  for (let i = colon + 1; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x21 || c > 0x7e || IDENTIFIER_SEPARATORS.includes(value[i]!)) return null;
  }
  if (IDENTIFIER_TRAILING.includes(value[value.length - 1]!)) return null;
  return kind + value.slice(colon);
}
