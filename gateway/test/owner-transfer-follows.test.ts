/**
 * A staff ownership transfer reaches every service: after staff hand a server to a member (auth publishes
 * the two membership role changes and server.owner-changed in one batch), the new owner may do what only
 * the owner may do in backups and billing, and the previous owner (now an admin) may not. The all-in-one
 * with its embedded adapters; each service answers from its own read model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '@skald/service-kit';
import { waitFor } from '@skald/testing';
import type { AllInOne, SignedUp } from './support/all-in-one.ts';
import { bearer, claimsOf, startAllInOne } from './support/all-in-one.ts';

let aio: AllInOne;
let owner: SignedUp;
let member: SignedUp;
let serverId = '';

/** Owner-only calls in two services: backups' settings and billing's checkout (503 there: no payments configured). */
async function ownerOnlyStatuses(user: SignedUp): Promise<[number, number]> {
  const settings = await aio.inject({ method: 'GET', url: `/api/backups/${serverId}/settings`, headers: bearer(user.token) });
  const checkout = await aio.inject({ method: 'POST', url: '/api/billing/create-checkout-session', headers: bearer(user.token), payload: { serverId, tier: 'pro' } });
  return [settings.statusCode, checkout.statusCode];
}

beforeAll(async () => {
  aio = await startAllInOne({ logLevel: 'silent' });
  owner = await aio.signUp('transfer_first_owner');
  member = await aio.signUp('transfer_next_owner');
  serverId = (await aio.createServer(owner.token, 'Handed Over')).id;
  const added = await aio.inject({ method: 'POST', url: '/api/manage/add-user', headers: bearer(owner.token), payload: { serverId, email: `${member.username}@example.test`, role: 'user' } });
  expect(added.statusCode, added.body).toBe(201);
  await waitFor(async () => (await ownerOnlyStatuses(member)).every((status) => status === 403), 'the member known as a user in backups and billing');
}, 120_000);

afterAll(async () => {
  await aio?.close();
});

describe('a staff ownership transfer', () => {
  it('gives the new owner the owner-only calls in backups and billing, and takes them from the previous owner', async () => {
    expect(await ownerOnlyStatuses(owner)).toEqual([200, 503]);
    const staff = await aio.signUp('transfer_staff');
    const superadmin = bearer(signAccessToken(aio.keys, { sub: staff.userId, role: 'superadmin', tv: claimsOf(staff.token).tv }, 3600));
    const transfer = await aio.inject({ method: 'PUT', url: `/api/admin/servers/${serverId}/users/${member.userId}`, headers: superadmin, payload: { role: 'owner' } });
    expect(transfer.statusCode, transfer.body).toBe(200);

    await waitFor(async () => JSON.stringify(await ownerOnlyStatuses(member)) === JSON.stringify([200, 503]), 'the new owner allowed in backups and billing');
    expect(await ownerOnlyStatuses(member)).toEqual([200, 503]);
    await waitFor(async () => (await ownerOnlyStatuses(owner)).every((status) => status === 403), 'the previous owner refused');
    expect(await ownerOnlyStatuses(owner)).toEqual([403, 403]);
  });
});
