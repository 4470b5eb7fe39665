/**
 * The time a log happened. A client that batches, or retries after an outage, sends a log long after it
 * happened; when the log carries its own time (the native `timestamp`, Loki's nanoseconds, Datadog's
 * `timestamp`/`date`, Fivemanage's `timestamp`), that time is the log's createdAt, provided it lies in
 * CLIENT_TIME_WINDOW around the arrival: at most a day before, at most 5 minutes after. Outside the window
 * (or unreadable, for the compatible formats, which never refuse a log for it) the arrival stands, and the
 * log's metadata says so under SKALD_METADATA_KEY: `{ clientTimestamp: <as sent>, timestampRejected: <why> }`.
 * The arrival is kept beside it (receivedAt): retention counts from it.
 *
 * Readers allocate nothing: an ISO text is read character by character, a number is used as it is.
 */
import { CLIENT_TIME_WINDOW } from '@skald/contracts';

/** The key of Skald's own notes in a log's metadata (reserved: Skald replaces what a client puts there). */
export const SKALD_METADATA_KEY = '_skald';

export type TimestampRefusal = 'too old' | 'too far ahead' | 'unreadable';

/** What a client sent as the time, kept in the refusal note: a text at most this long. */
const MAX_SENT_LENGTH = 64;
/** The largest epoch ms a JavaScript Date holds (±100,000,000 days). */
const MAX_EPOCH_MS = 8.64e15;

/**
 * A time a compatible format's mapper has read by its own rules: `ms` (epoch, whole) or null when the text
 * was unreadable, and what the client sent. The native validation takes it as it is (log-input.ts): a class
 * instance never comes out of a JSON body, so a client cannot pass one off as its own.
 */
export class ClientTime {
  readonly ms: number | null;
  readonly sent: string | number;
  constructor(ms: number | null, sent: string | number) {
    this.ms = ms;
    this.sent = typeof sent === 'string' && sent.length > MAX_SENT_LENGTH ? sent.slice(0, MAX_SENT_LENGTH) : sent;
  }
}

function digit(text: string, at: number): number {
  const code = text.charCodeAt(at) - 48;
  return code >= 0 && code <= 9 ? code : -1;
}

/** The number written by `length` digits at `at`, or -1. */
function digits(text: string, at: number, length: number): number {
  let value = 0;
  for (let i = 0; i < length; i++) {
    const d = digit(text, at + i);
    if (d < 0) return -1;
    value = value * 10 + d;
  }
  return value;
}

/** Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's days_from_civil; Date.UTC costs ~4 times more). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719_468;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Epoch ms of an ISO 8601 / RFC 3339 time with its UTC offset: `2025-08-20T11:59:59Z`,
 * `2025-08-20T11:59:59.123456789+02:00` (a space for the T, seconds and 1-9 fraction digits optional, `Z` or
 * `±hh:mm` / `±hhmm`); null for anything else, an impossible date (2025-02-30) included. A time without an
 * offset is refused: it names no instant.
 */
export function parseIsoTime(text: string): number | null {
  if (text.length < 17 || text.length > 40) return null;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const t = text.charCodeAt(10);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59) return null;
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(13) !== 58) return null;
  if (t !== 84 && t !== 116 && t !== 32) return null;
  if (day > daysIn(year, month)) return null;
  let at = 16;
  let second = 0;
  let ms = 0;
  if (text.charCodeAt(at) === 58) {
    second = digits(text, at + 1, 2);
    if (second < 0 || second > 59) return null;
    at += 3;
    if (text.charCodeAt(at) === 46 || text.charCodeAt(at) === 44) {
      at += 1;
      const start = at;
      while (at < text.length && digit(text, at) >= 0) {
        // Milliseconds: the first three digits; finer ones are read and dropped.
        if (at - start < 3) ms = ms * 10 + digit(text, at);
        at += 1;
      }
      const count = at - start;
      if (count === 0 || count > 9) return null;
      for (let i = count; i < 3; i++) ms *= 10;
    }
  }
  let offsetMinutes = 0;
  const zone = text.charCodeAt(at);
  if (zone === 90 || zone === 122) {
    at += 1;
  } else if (zone === 43 || zone === 45) {
    const offsetHours = digits(text, at + 1, 2);
    const colon = text.charCodeAt(at + 3) === 58 ? 1 : 0;
    const offsetMins = digits(text, at + 3 + colon, 2);
    if (offsetHours < 0 || offsetHours > 23 || offsetMins < 0 || offsetMins > 59) return null;
    offsetMinutes = (offsetHours * 60 + offsetMins) * (zone === 45 ? -1 : 1);
    at += 5 + colon;
  } else {
    return null;
  }
  if (at !== text.length) return null;
  return daysFromCivil(year, month, day) * 86_400_000 + ((hour * 60 + minute - offsetMinutes) * 60 + second) * 1000 + ms;
}

/** Epoch ms a number names, whole (a fraction of a millisecond dropped), or null outside what a Date holds. */
function epochMs(value: number): number | null {
  return Number.isFinite(value) && value >= 0 && value <= MAX_EPOCH_MS ? Math.floor(value) : null;
}

/** Digits only: epoch ms written as text (what a Lua client's tostring of a large number gives). */
function isDigits(text: string): boolean {
  if (text.length === 0 || text.length > 16) return false;
  for (let i = 0; i < text.length; i++) if (digit(text, i) < 0) return false;
  return true;
}

/**
 * A time as the native API takes it: epoch milliseconds (a number, or digits as text) or an ISO 8601 text
 * with its offset. Null when it is neither (the native API answers 400; a compatible format notes it).
 */
export function readClientTime(value: string | number): number | null {
  if (typeof value === 'number') return epochMs(value);
  if (isDigits(value)) return epochMs(Number(value));
  return parseIsoTime(value);
}

/** Why a readable client time is not taken, or null when it lies within the window around `receivedAt`. */
export function windowRefusal(ms: number, receivedAt: number): TimestampRefusal | null {
  if (ms < receivedAt - CLIENT_TIME_WINDOW.maxAgeMs) return 'too old';
  if (ms > receivedAt + CLIENT_TIME_WINDOW.maxAheadMs) return 'too far ahead';
  return null;
}

/** The metadata of a log whose client time was refused: the note beside the client's own keys (a new object). */
export function withRefusalNote(
  metadata: Readonly<Record<string, unknown>> | null,
  sent: string | number,
  refusal: TimestampRefusal,
): Record<string, unknown> {
  return { ...metadata, [SKALD_METADATA_KEY]: { clientTimestamp: sent, timestampRejected: refusal } };
}
