/**
 * One token verification for every service: the auth service verifies access tokens
 * with the service kit's authPlugin, so a token older than the maximum age (iat far in the past, exp
 * still in the future) is refused by auth's GET /auth/me exactly as by a logs route, and a token just
 * younger than the maximum age is accepted by both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { AUTH_INVALID_MESSAGE, signAccessToken } from '@skald/service-kit';
import type { AccessClaimsInput } from '@skald/service-kit';
import { waitFor } from '@skald/testing';
import { bearer, claimsOf, startAllInOne } from './support/all-in-one.ts';
import type { AllInOne } from './support/all-in-one.ts';

/** The kit's default maximum age (authPlugin maxAgeSeconds), which no service overrides. */
const MAX_AGE_SECONDS = 7 * 24 * 3600;
const DAY_MS = 24 * 3600 * 1000;

let aio: AllInOne;
let claims: AccessClaimsInput;
let serverId: string;

beforeAll(async () => {
  aio = await startAllInOne({ logLevel: 'silent' });
  const user = await aio.signUp('max_age_user');
  const { sub, role, tv } = claimsOf(user.token);
  claims = { sub, role: role as AccessClaimsInput['role'], tv };
  serverId = (await aio.createServer(user.token, 'Max age')).id;
  // The logs service learns the membership from the identity events.
  await waitFor(async () => (await aio.inject({ method: 'GET', url: `/api/logs/my?serverId=${serverId}`, headers: bearer(user.token) })).statusCode === 200, 'logs to know the member');
});

afterAll(async () => {
  await aio?.close();
});

/** A token issued `ageMs` ago that expires one day from now, signed with the process's own key. */
function tokenIssuedAgo(ageMs: number): string {
  const now = Date.now();
  return signAccessToken(aio.keys, claims, Math.round((ageMs + DAY_MS) / 1000), now - ageMs);
}

async function both(token: string): Promise<{ auth: LightMyRequestResponse; logs: LightMyRequestResponse }> {
  return {
    auth: await aio.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) }),
    logs: await aio.inject({ method: 'GET', url: `/api/logs/my?serverId=${serverId}`, headers: bearer(token) }),
  };
}

describe('access-token maximum age, auth and logs alike', () => {
  it('refuses a token older than the maximum age whose exp is still ahead, on auth as on logs', async () => {
    const old = tokenIssuedAgo(MAX_AGE_SECONDS * 1000 + DAY_MS);
    expect(claimsOf(old)).toMatchObject({ sub: claims.sub });
    const { auth, logs } = await both(old);
    expect(auth.statusCode).toBe(401);
    expect(logs.statusCode).toBe(401);
    expect(auth.json()).toEqual({ error: AUTH_INVALID_MESSAGE, message: AUTH_INVALID_MESSAGE });
    expect(auth.json()).toEqual(logs.json());
  });

  it('accepts a token just younger than the maximum age, on auth as on logs', async () => {
    const { auth, logs } = await both(tokenIssuedAgo(MAX_AGE_SECONDS * 1000 - DAY_MS));
    expect(auth.statusCode).toBe(200);
    expect(logs.statusCode).toBe(200);
  });
});
