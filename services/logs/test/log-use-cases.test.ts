import { describe, expect, it } from 'vitest';
import type { LogQuery, LogStore } from '@skald/ports';
import { HttpError } from '@skald/service-kit';
import { CLEANUP_DAYS_ERROR, cleanupDays } from '../src/domain/log-cleanup.ts';
import { createImageUrlSigner } from '../src/domain/image-url.ts';
import { listLogs } from '../src/domain/log-list.ts';

describe('listLogs', () => {
  it("queries the server the guard granted, not the query string's serverId", async () => {
    const asked: LogQuery[] = [];
    const logStore: Pick<LogStore, 'query'> = {
      async query(query) {
        asked.push(query);
        return { items: [], total: 0, totalCapped: false };
      },
    };
    const deps = { logStore, signer: createImageUrlSigner('k'.repeat(32), '/api'), now: () => 0 };
    await listLogs(deps, 'granted', { serverId: 'from-the-query' }, 'text', 10);
    expect(asked.map((q) => q.serverId)).toEqual(['granted']);
  });

  it('answers a bad filter with a 400 naming it, and reads nothing', async () => {
    const deps = {
      logStore: { query: () => Promise.reject(new Error('must not be read')) },
      signer: createImageUrlSigner('k'.repeat(32), '/api'),
      now: () => 0,
    };
    const refused = await listLogs(deps, 'granted', { serverId: 'granted', dateFrom: '2025-13-40' }, 'text', 10).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).statusCode).toBe(400);
    expect((refused as HttpError).message).toBe('dateFrom must be a date YYYY-MM-DD');
  });
});

describe('cleanupDays', () => {
  it('takes a whole number of days, 0 or more', () => {
    expect(cleanupDays('0')).toBe(0);
    expect(cleanupDays(' 30 ')).toBe(30);
  });

  it.each([[undefined], [''], ['-1'], ['1.5'], ['abc'], ['100001']])('refuses %j with the one message', (days) => {
    expect(() => cleanupDays(days)).toThrow(CLEANUP_DAYS_ERROR);
  });
});
