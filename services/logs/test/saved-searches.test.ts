/**
 * Saved searches over the real service (document store on SQLite, real tokens): shared by every member,
 * deleted by their creator or the server's owner/admin, at most 50 a server, names trimmed and unique,
 * refusals in sentences, and nothing of another tenant.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SAVED_SEARCHES_FULL,
  SAVED_SEARCH_DATES_REVERSED,
  SAVED_SEARCH_DELETE_REFUSED,
  SAVED_SEARCH_LIMITS,
  SAVED_SEARCH_NAME_REQUIRED,
  SAVED_SEARCH_NAME_TAKEN,
  SAVED_SEARCH_NAME_TOO_LONG,
  SAVED_SEARCH_NO_FILTER,
} from '@skald/contracts';
import type { SavedSearch, SavedSearchList } from '@skald/contracts';
import { SERVER_NOT_FOUND } from '@skald/service-kit';
import { NOW, createHarness, getAs, seedTenants } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const S = 'srv-saved';
const OTHER = 'srv-saved-other';
let h: Harness;

function post(user: string | null, payload: Record<string, unknown>) {
  const request = { method: 'POST' as const, url: '/saved-searches', payload };
  return user === null ? h.inject(request) : h.injectAs({ id: user }, request);
}

function remove(user: string | null, id: string) {
  const request = { method: 'DELETE' as const, url: `/saved-searches/${encodeURIComponent(id)}` };
  return user === null ? h.inject(request) : h.injectAs({ id: user }, request);
}

async function list(user = 'user-1', serverId = S): Promise<SavedSearch[]> {
  const res = await getAs(h, `/saved-searches?serverId=${serverId}`, user);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SavedSearchList>().searches;
}

async function save(user: string, name: string, query: Record<string, string> = { level: 'error' }, serverId = S): Promise<SavedSearch> {
  const res = await post(user, { serverId, name, query });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<SavedSearch>();
}

beforeEach(async () => {
  h = await createHarness();
  await seedTenants(h, S, OTHER);
});

afterEach(async () => {
  await h.close();
});

describe('saving and listing', () => {
  it('saves the set filters under the trimmed name, answers the search, and every member reads it', async () => {
    const res = await post('user-1', { serverId: S, name: '  Bank robberies  ', query: { search: ' bank ', type: 'Robbery', level: '', dateFrom: '2025-08-01', dateTo: '2025-08-20' } });
    expect(res.statusCode).toBe(201);
    const saved = res.json<SavedSearch>();
    expect(saved).toEqual({
      id: expect.any(String),
      name: 'Bank robberies',
      query: { search: 'bank', type: 'Robbery', dateFrom: '2025-08-01', dateTo: '2025-08-20' },
      createdBy: 'user-1',
      createdAt: new Date(NOW).toISOString(),
    });
    for (const user of ['user-1', 'admin-1', 'owner-1']) expect(await list(user), user).toEqual([saved]);
  });

  it('lists by name ignoring case, and keeps each server’s searches apart', async () => {
    await save('owner-1', 'zeta');
    await save('admin-1', 'Alpha');
    await save('user-1', 'beta');
    await save('stranger', 'Theirs', { level: 'warn' }, OTHER);
    expect((await list()).map((s) => s.name)).toEqual(['Alpha', 'beta', 'zeta']);
    expect((await list('stranger', OTHER)).map((s) => s.name)).toEqual(['Theirs']);
  });

  it('refuses a bad name or query with a sentence and saves nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '   ', query: { level: 'error' } }, SAVED_SEARCH_NAME_REQUIRED],
      [{ name: 'x'.repeat(SAVED_SEARCH_LIMITS.maxNameLength + 1), query: { level: 'error' } }, SAVED_SEARCH_NAME_TOO_LONG],
      [{ name: 'Nothing', query: {} }, SAVED_SEARCH_NO_FILTER],
      [{ name: 'Blank', query: { search: '  ', level: '' } }, SAVED_SEARCH_NO_FILTER],
      [{ name: 'Reversed', query: { dateFrom: '2025-08-20', dateTo: '2025-08-01' } }, SAVED_SEARCH_DATES_REVERSED],
      [{ name: 'No such day', query: { dateFrom: '2025-02-30' } }, 'From date must be a date such as 2025-03-10.'],
      [{ name: 'Bad shape', query: { dateTo: '20/08/2025' } }, 'To date is not valid.'],
      [{ name: 'Long', query: { search: 's'.repeat(SAVED_SEARCH_LIMITS.maxFilterLength + 1) } }, `Search must be at most ${SAVED_SEARCH_LIMITS.maxFilterLength} characters.`],
      [{ name: 'Other field', query: { page: '2' } }, 'Unknown field: query.page.'],
      [{ query: { level: 'error' } }, SAVED_SEARCH_NAME_REQUIRED],
    ];
    for (const [body, sentence] of cases) {
      const res = await post('user-1', { serverId: S, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toBe(sentence);
    }
    // Exactly the longest name is fine, counted in characters (an emoji is one).
    await save('user-1', '🎮'.repeat(SAVED_SEARCH_LIMITS.maxNameLength));
    expect(await list()).toHaveLength(1);
  });

  it('refuses a second search of the same name on the server (ignoring case) with 409; another server may use it', async () => {
    await save('user-1', 'Deaths');
    const res = await post('admin-1', { serverId: S, name: ' deaths ', query: { type: 'Death' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(SAVED_SEARCH_NAME_TAKEN);
    await save('stranger', 'Deaths', { type: 'Death' }, OTHER);
  });

  it(`keeps at most ${SAVED_SEARCH_LIMITS.maxPerServer} a server: the next is a 409 with a sentence, and a deletion frees a place`, async () => {
    const saved: SavedSearch[] = [];
    for (let i = 0; i < SAVED_SEARCH_LIMITS.maxPerServer; i++) saved.push(await save(i % 2 === 0 ? 'user-1' : 'admin-1', `search ${i}`));
    const refused = await post('owner-1', { serverId: S, name: 'one too many', query: { level: 'warn' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(SAVED_SEARCHES_FULL);
    // The other server is not counted against this one.
    await save('stranger', 'elsewhere', { level: 'warn' }, OTHER);
    expect((await remove('user-1', saved[10]!.id)).statusCode).toBe(200);
    await save('owner-1', 'one too many');
    expect(await list()).toHaveLength(SAVED_SEARCH_LIMITS.maxPerServer);
  });

  it('never goes past the limit when members save at the same time', async () => {
    for (let i = 0; i < SAVED_SEARCH_LIMITS.maxPerServer - 3; i++) await save('user-1', `search ${i}`);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => post(['user-1', 'admin-1', 'owner-1'][i % 3]!, { serverId: S, name: `race ${i}`, query: { level: 'info' } })));
    expect(answers.filter((res) => res.statusCode === 201)).toHaveLength(3);
    expect(answers.filter((res) => res.statusCode === 409)).toHaveLength(5);
    expect(await list()).toHaveLength(SAVED_SEARCH_LIMITS.maxPerServer);
  });
});

describe('who may do what', () => {
  it('answers 401 without a token on every route', async () => {
    const saved = await save('user-1', 'Mine');
    expect((await getAs(h, `/saved-searches?serverId=${S}`, null)).statusCode).toBe(401);
    expect((await post(null, { serverId: S, name: 'x', query: { level: 'error' } })).statusCode).toBe(401);
    expect((await remove(null, saved.id)).statusCode).toBe(401);
    expect(await list()).toHaveLength(1);
  });

  it('answers 404 to another tenant: no list, no save, no delete, and the search stays', async () => {
    const saved = await save('user-1', 'Mine');
    const read = await getAs(h, `/saved-searches?serverId=${S}`, 'stranger');
    expect(read.statusCode).toBe(404);
    expect(read.json().message).toBe(SERVER_NOT_FOUND);
    const write = await post('stranger', { serverId: S, name: 'Theirs', query: { level: 'error' } });
    expect(write.statusCode).toBe(404);
    const gone = await remove('stranger', saved.id);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('Saved search not found.');
    // A member of S cannot reach the other server's searches either.
    const theirs = await save('stranger', 'Theirs', { level: 'warn' }, OTHER);
    expect((await remove('owner-1', theirs.id)).statusCode).toBe(404);
    expect((await getAs(h, `/saved-searches?serverId=${OTHER}`, 'owner-1')).statusCode).toBe(404);
    expect(await list()).toEqual([saved]);
    expect(await list('stranger', OTHER)).toEqual([theirs]);
  });

  it('lets the creator delete their own search, and refuses a user who did not save it (403)', async () => {
    const byAdmin = await save('admin-1', 'Admin’s');
    const byUser = await save('user-1', 'User’s');
    const refused = await remove('user-1', byAdmin.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(SAVED_SEARCH_DELETE_REFUSED);
    expect((await list()).map((s) => s.id)).toContain(byAdmin.id);
    const own = await remove('user-1', byUser.id);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({ message: 'Saved search deleted' });
    expect((await list()).map((s) => s.id)).toEqual([byAdmin.id]);
  });

  it('lets the owner and an admin delete any search of the server', async () => {
    const first = await save('user-1', 'First');
    const second = await save('owner-1', 'Second');
    expect((await remove('admin-1', first.id)).statusCode).toBe(200);
    expect((await remove('admin-1', second.id)).statusCode).toBe(200);
    const third = await save('admin-1', 'Third');
    expect((await remove('owner-1', third.id)).statusCode).toBe(200);
    expect(await list()).toEqual([]);
  });

  it('answers 404 for an id of no search, and for one already deleted', async () => {
    const saved = await save('user-1', 'Once');
    expect((await remove('user-1', saved.id)).statusCode).toBe(200);
    expect((await remove('user-1', saved.id)).statusCode).toBe(404);
    expect((await remove('owner-1', 'no-such-search')).statusCode).toBe(404);
  });
});
