/**
 * The time a log happened (domain/log-time.ts, accepted-log.ts): what counts as a client's time, the
 * window around the arrival on both sides (a fixed arrival stands for the clock), the note a refused time
 * leaves in the metadata, and each compatible format's time field read into it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLIENT_TIME_WINDOW } from '@skald/contracts';
import { toAccepted } from '../src/domain/accepted-log.ts';
import { CompatShapeError } from '../src/domain/compat/compat-log.ts';
import { parseDatadogBody } from '../src/domain/compat/datadog.ts';
import { parseFivemanageBody } from '../src/domain/compat/fivemanage.ts';
import { parseLokiJson } from '../src/domain/compat/loki.ts';
import { InvalidFieldError, normalizeLog, parseLogBody, parsePhotoFields } from '../src/domain/log-input.ts';
import type { LogInput } from '../src/domain/log-input.ts';
import { SKALD_METADATA_KEY, parseIsoTime, readClientTime, windowRefusal } from '../src/domain/log-time.ts';

/** The arrival every case is measured from: 2026-03-10T12:00:00.000Z. */
const ARRIVAL = Date.UTC(2026, 2, 10, 12);
const DAY = CLIENT_TIME_WINDOW.maxAgeMs;
const AHEAD = CLIENT_TIME_WINDOW.maxAheadMs;

function accepted(input: LogInput) {
  return toAccepted(input, 'id-1', ARRIVAL);
}

function one(body: unknown): LogInput {
  return parseLogBody(body).logs[0]!;
}

function fieldOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvalidFieldError || error instanceof CompatShapeError) return error.field;
    throw error;
  }
  throw new Error('expected a field error');
}

describe('parseIsoTime', () => {
  it('reads RFC 3339 times with their offset, to the millisecond', () => {
    expect(parseIsoTime('2026-03-10T11:59:59Z')).toBe(Date.UTC(2026, 2, 10, 11, 59, 59));
    expect(parseIsoTime('2026-03-10T11:59:59.123Z')).toBe(Date.UTC(2026, 2, 10, 11, 59, 59, 123));
    expect(parseIsoTime('2026-03-10T11:59:59.1Z')).toBe(Date.UTC(2026, 2, 10, 11, 59, 59, 100));
    // Nanoseconds (Go, Loki-style clients): read and dropped past the millisecond, never rounded up.
    expect(parseIsoTime('2026-03-10T11:59:59.123999999Z')).toBe(Date.UTC(2026, 2, 10, 11, 59, 59, 123));
    expect(parseIsoTime('2026-03-10T13:59:59+02:00')).toBe(Date.UTC(2026, 2, 10, 11, 59, 59));
    expect(parseIsoTime('2026-03-10T06:29:59-0530')).toBe(Date.UTC(2026, 2, 10, 11, 59, 59));
    expect(parseIsoTime('2026-03-10 11:59z')).toBe(Date.UTC(2026, 2, 10, 11, 59));
    expect(parseIsoTime('2026-03-10t11:59:59,5Z')).toBe(Date.UTC(2026, 2, 10, 11, 59, 59, 500));
    expect(parseIsoTime('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
  });

  it('agrees with Date on any instant from 1970 to 2200, in UTC and written with an offset', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) }), fc.integer({ min: -14 * 60, max: 14 * 60 }), (ms, offsetMinutes) => {
        expect(parseIsoTime(new Date(ms).toISOString())).toBe(ms);
        // The same instant as the wall clock of a zone `offsetMinutes` east of UTC.
        const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 23);
        const sign = offsetMinutes < 0 ? '-' : '+';
        const abs = Math.abs(offsetMinutes);
        const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
        expect(parseIsoTime(`${local}${zone}`)).toBe(ms);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a time without an offset, impossible dates and anything else', () => {
    for (const text of [
      '2026-03-10T11:59:59',
      '2026-03-10',
      '2023-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-03-10T24:00:00Z',
      '2026-03-10T11:60:00Z',
      '2026-03-10T11:59:60Z',
      '2026-03-10T11:59:59.Z',
      '2026-03-10T11:59:59.1234567890Z',
      '2026-03-10T11:59:59Z ',
      '2026-03-10T11:59:59+2:00',
      '2026-03-10T11:59:59+24:00',
      '2026/03/10T11:59:59Z',
      'Tue, 10 Mar 2026 11:59:59 GMT',
      'yesterday',
      '',
    ]) {
      expect(parseIsoTime(text), text).toBeNull();
    }
  });
});

describe('readClientTime (the native rule)', () => {
  it('takes epoch milliseconds as a number or as digits, whole, and ISO 8601 text', () => {
    expect(readClientTime(ARRIVAL)).toBe(ARRIVAL);
    expect(readClientTime(ARRIVAL + 0.9)).toBe(ARRIVAL);
    expect(readClientTime(String(ARRIVAL))).toBe(ARRIVAL);
    expect(readClientTime('2026-03-10T12:00:00Z')).toBe(ARRIVAL);
    expect(readClientTime(0)).toBe(0);
  });

  it('refuses what names no time a Date holds', () => {
    for (const value of [-1, Number.NaN, Number.POSITIVE_INFINITY, 9e15, '-5', '12.5', '1e12', '0x10', '99999999999999999']) {
      expect(readClientTime(value), String(value)).toBeNull();
    }
  });
});

describe('the window around the arrival (fixed clock)', () => {
  it('takes a time from a day before to 5 minutes after the arrival, both bounds included', () => {
    expect(windowRefusal(ARRIVAL - DAY, ARRIVAL)).toBeNull();
    expect(windowRefusal(ARRIVAL, ARRIVAL)).toBeNull();
    expect(windowRefusal(ARRIVAL + AHEAD, ARRIVAL)).toBeNull();
    expect(windowRefusal(ARRIVAL - DAY - 1, ARRIVAL)).toBe('too old');
    expect(windowRefusal(ARRIVAL + AHEAD + 1, ARRIVAL)).toBe('too far ahead');
  });

  it('makes a taken time the log’s createdAt and keeps the arrival as receivedAt', () => {
    const twentyThreeHours = ARRIVAL - 23 * 3600_000;
    const log = accepted(one({ message: 'late', timestamp: new Date(twentyThreeHours).toISOString(), metadata: { a: 1 } }));
    expect(log).toMatchObject({ createdAt: twentyThreeHours, receivedAt: ARRIVAL, metadata: { a: 1 } });
    const ahead = accepted(one({ message: 'ahead', timestamp: ARRIVAL + AHEAD }));
    expect(ahead).toMatchObject({ createdAt: ARRIVAL + AHEAD, receivedAt: ARRIVAL, metadata: null });
  });

  it('leaves a log without a time of its own at its arrival, with no receivedAt and its metadata untouched', () => {
    const metadata = { a: 1 };
    const input = one({ message: 'now', metadata });
    const log = accepted(input);
    expect(log.createdAt).toBe(ARRIVAL);
    expect('receivedAt' in log).toBe(false);
    expect(log.metadata).toBe(input.metadata);
    // A client time equal to the arrival is taken, and the event says nothing more than for no time at all.
    expect('receivedAt' in accepted(one({ message: 'same', timestamp: ARRIVAL }))).toBe(false);
  });

  it('keeps the arrival for a time outside the window and notes why in the metadata, both sides', () => {
    const old = accepted(one({ message: 'old', timestamp: '2026-03-09T11:59:59.999Z', metadata: { player: 'Ann' } }));
    expect(old.createdAt).toBe(ARRIVAL);
    expect('receivedAt' in old).toBe(false);
    expect(old.metadata).toEqual({ player: 'Ann', [SKALD_METADATA_KEY]: { clientTimestamp: '2026-03-09T11:59:59.999Z', timestampRejected: 'too old' } });
    const ahead = accepted(one({ message: 'ahead', timestamp: ARRIVAL + AHEAD + 1 }));
    expect(ahead.createdAt).toBe(ARRIVAL);
    expect(ahead.metadata).toEqual({ [SKALD_METADATA_KEY]: { clientTimestamp: ARRIVAL + AHEAD + 1, timestampRejected: 'too far ahead' } });
    // Epoch seconds by mistake read as milliseconds: January 1970, too old, and the note shows what was sent.
    const seconds = accepted(one({ message: 'seconds', timestamp: Math.floor(ARRIVAL / 1000) }));
    expect(seconds.metadata).toEqual({ [SKALD_METADATA_KEY]: { clientTimestamp: Math.floor(ARRIVAL / 1000), timestampRejected: 'too old' } });
  });

  it('never changes the client’s metadata object, and replaces a client’s own note key', () => {
    const metadata = { [SKALD_METADATA_KEY]: 'forged', keep: true };
    const input = one({ message: 'x', timestamp: 1, metadata });
    const log = accepted(input);
    expect(log.metadata).toEqual({ keep: true, [SKALD_METADATA_KEY]: { clientTimestamp: 1, timestampRejected: 'too old' } });
    expect(metadata).toEqual({ [SKALD_METADATA_KEY]: 'forged', keep: true });
  });
});

describe('the native timestamp field', () => {
  it('is optional, null meaning none, in a single log, a batch and a photo log’s form', () => {
    expect(one({ message: 'x', timestamp: null })).toMatchObject({ timestamp: null, timestampSent: null });
    const { logs } = parseLogBody([{ message: 'a', timestamp: ARRIVAL }, { message: 'b' }, { message: 'c', timestamp: '2026-03-10T12:00:00Z' }]);
    expect(logs.map((l) => [l.timestamp, l.timestampSent])).toEqual([
      [ARRIVAL, ARRIVAL],
      [null, null],
      [ARRIVAL, '2026-03-10T12:00:00Z'],
    ]);
    expect(parsePhotoFields({ timestamp: String(ARRIVAL) })).toMatchObject({ timestamp: ARRIVAL, timestampSent: String(ARRIVAL) });
  });

  it('refuses a value that is neither ISO 8601 nor epoch milliseconds, naming the field', () => {
    expect(fieldOf(() => parseLogBody({ message: 'x', timestamp: 'yesterday' }))).toBe('timestamp');
    expect(fieldOf(() => parseLogBody([{ message: 'ok' }, { message: 'x', timestamp: true }]))).toBe('[1].timestamp');
    expect(fieldOf(() => parseLogBody({ message: 'x', timestamp: { $date: 1 } }))).toBe('timestamp');
    expect(fieldOf(() => parseLogBody({ message: 'x', timestamp: -1 }))).toBe('timestamp');
    expect(fieldOf(() => parsePhotoFields({ timestamp: '2026-03-10T12:00:00' }))).toBe('timestamp');
    let message = '';
    try {
      parseLogBody({ message: 'x', timestamp: 'soon' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe("Invalid field 'timestamp': must be an ISO 8601 time with its UTC offset (2025-08-20T11:59:59Z) or epoch milliseconds");
  });
});

/** A compatible format's logs through the native validation (as http/compat/accept-logs.ts does), accepted at ARRIVAL. */
function compat(logs: ReturnType<typeof parseLokiJson>) {
  return logs.map((log) => accepted(normalizeLog(log)));
}

describe('the compatible formats’ times', () => {
  it('Loki: the nanosecond string, to the millisecond; outside the window the nanoseconds sent are noted', () => {
    // An hour before the arrival, plus 0.123456 ms: the fraction of a millisecond is dropped.
    const ns = `${ARRIVAL - 3600_000}123456`;
    const [inWindow, tooOld] = compat(
      parseLokiJson({ streams: [{ stream: { event: 'join', server: 'RP' }, values: [[ns, 'hello'], ['1763870400000000000', 'long ago']] }] }),
    );
    expect(inWindow).toMatchObject({ createdAt: ARRIVAL - 3600_000, receivedAt: ARRIVAL, metadata: { server: 'RP' } });
    expect(tooOld!.createdAt).toBe(ARRIVAL);
    expect(tooOld!.metadata).toEqual({ server: 'RP', [SKALD_METADATA_KEY]: { clientTimestamp: '1763870400000000000', timestampRejected: 'too old' } });
  });

  it('Datadog: `timestamp` (epoch ms), else `date` (ISO 8601); an unreadable one is noted, never refused', () => {
    const body = [
      { message: 'ms', service: 's', timestamp: ARRIVAL - 60_000 },
      { message: 'iso', service: 's', date: '2026-03-10T11:30:00Z' },
      { message: 'both', service: 's', timestamp: ARRIVAL - 1000, date: '2026-03-10T11:00:00Z' },
      { message: 'garbage', service: 's', timestamp: 'last tuesday' },
      { message: 'ahead', service: 's', date: '2026-03-10T12:05:00.001Z' },
    ];
    const [ms, iso, both, garbage, ahead] = compat(parseDatadogBody(body));
    expect(ms).toMatchObject({ createdAt: ARRIVAL - 60_000, receivedAt: ARRIVAL, metadata: null });
    expect(iso).toMatchObject({ createdAt: Date.UTC(2026, 2, 10, 11, 30), metadata: null });
    expect(both).toMatchObject({ createdAt: ARRIVAL - 1000, metadata: { date: '2026-03-10T11:00:00Z' } });
    expect(garbage).toMatchObject({ createdAt: ARRIVAL, metadata: { [SKALD_METADATA_KEY]: { clientTimestamp: 'last tuesday', timestampRejected: 'unreadable' } } });
    expect(ahead).toMatchObject({ createdAt: ARRIVAL, metadata: { [SKALD_METADATA_KEY]: { clientTimestamp: '2026-03-10T12:05:00.001Z', timestampRejected: 'too far ahead' } } });
  });

  it('Fivemanage: a top-level `timestamp`, epoch ms or ISO 8601; the clients that send none keep their arrival', () => {
    const [ms, iso, none, odd] = compat(
      parseFivemanageBody(
        [
          { level: 'info', message: 'ms', timestamp: ARRIVAL - 5000 },
          { level: 'info', message: 'iso', timestamp: '2026-03-10T13:00:00+02:00', metadata: { k: 'v' } },
          { level: 'info', message: 'none', metadata: { k: 'v' } },
          { level: 'info', message: 'odd', timestamp: { when: 'now' } },
        ],
        undefined,
      ),
    );
    expect(ms).toMatchObject({ createdAt: ARRIVAL - 5000, receivedAt: ARRIVAL });
    expect(iso).toMatchObject({ createdAt: Date.UTC(2026, 2, 10, 11), metadata: { k: 'v' } });
    expect(none!.createdAt).toBe(ARRIVAL);
    expect(none!.metadata).toEqual({ k: 'v' });
    expect(odd).toMatchObject({ createdAt: ARRIVAL, metadata: { [SKALD_METADATA_KEY]: { clientTimestamp: '{"when":"now"}', timestampRejected: 'unreadable' } } });
  });
});
