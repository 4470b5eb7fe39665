import { describe, it, expect } from 'vitest';
import { InvalidFieldError, parseLogBody, parsePhotoFields } from '../src/domain/log-input.ts';

function fieldOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvalidFieldError) return error.field;
    throw error;
  }
  throw new Error('expected InvalidFieldError');
}

describe('parseLogBody', () => {
  it('applies the spec defaults: level info, type General, resource unknown, metadata null', () => {
    expect(parseLogBody({ message: 'hello' })).toEqual({
      batch: false,
      logs: [{ message: 'hello', level: 'info', type: 'General', resource: 'unknown', metadata: null, timestamp: null, timestampSent: null }],
    });
  });

  it('normalises level case and the FiveM alias warning -> warn', () => {
    const { logs } = parseLogBody([{ message: 'a', level: 'ERROR' }, { message: 'b', level: 'warning' }]);
    expect(logs.map((l) => l.level)).toEqual(['error', 'warn']);
  });

  it('names the bad field, with the index inside a batch', () => {
    expect(fieldOf(() => parseLogBody({}))).toBe('message');
    expect(fieldOf(() => parseLogBody({ message: 5 }))).toBe('message');
    expect(fieldOf(() => parseLogBody({ message: 'x', level: 'loud' }))).toBe('level');
    expect(fieldOf(() => parseLogBody({ message: 'x', metadata: [1] }))).toBe('metadata');
    expect(fieldOf(() => parseLogBody({ message: 'x', metadata: 'text' }))).toBe('metadata');
    expect(fieldOf(() => parseLogBody({ message: 'x', extra: 1 }))).toBe('extra');
    expect(fieldOf(() => parseLogBody([{ message: 'ok' }, { message: 'x', type: { $ne: 1 } }]))).toBe('[1].type');
    expect(fieldOf(() => parseLogBody([{ message: 'ok' }, 'nope']))).toBe('[1]');
    expect(fieldOf(() => parseLogBody('text'))).toBe('body');
  });

  it('accepts 1..1000 logs in a batch and refuses empty or larger arrays', () => {
    expect(parseLogBody(Array.from({ length: 1000 }, () => ({ message: 'm' }))).logs).toHaveLength(1000);
    expect(fieldOf(() => parseLogBody([]))).toBe('body');
    expect(fieldOf(() => parseLogBody(Array.from({ length: 1001 }, () => ({ message: 'm' }))))).toBe('body');
  });

  it('refuses oversized messages and metadata', () => {
    expect(fieldOf(() => parseLogBody({ message: 'x'.repeat(10_001) }))).toBe('message');
    expect(fieldOf(() => parseLogBody({ message: 'x', metadata: { big: 'y'.repeat(20_000) } }))).toBe('metadata');
  });
});

describe('parsePhotoFields', () => {
  it('parses metadata from a JSON string and allows an empty message', () => {
    expect(parsePhotoFields({ metadata: '{"player":"Ann"}', level: 'warn' })).toEqual({
      message: '',
      level: 'warn',
      type: 'General',
      resource: 'unknown',
      metadata: { player: 'Ann' },
      timestamp: null,
      timestampSent: null,
    });
  });

  it('refuses metadata that is not a JSON object and unknown fields', () => {
    expect(fieldOf(() => parsePhotoFields({ metadata: '{bad' }))).toBe('metadata');
    expect(fieldOf(() => parsePhotoFields({ metadata: '[1,2]' }))).toBe('metadata');
    expect(fieldOf(() => parsePhotoFields({ owner: 'me' }))).toBe('owner');
  });
});
