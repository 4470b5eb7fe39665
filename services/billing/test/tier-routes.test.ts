import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TIERS } from '@skald/contracts';
import { createHarness, getAs, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const S = 'srv-1';
const OTHER = 'srv-2';
let h: Harness;

beforeEach(async () => {
  h = await createHarness();
  await seedServer(h, { serverId: S, ownerId: 'owner-1', tier: 'starter' }, { 'admin-1': 'admin', 'user-1': 'user' });
  await seedServer(h, { serverId: OTHER, ownerId: 'stranger', tier: 'pro' });
});

afterEach(async () => {
  await h.close();
});

describe('GET /tiers', () => {
  it('answers the 8 tiers in order with every field, without a token', async () => {
    const res = await h.inject({ method: 'GET', url: '/tiers' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.map((t: { key: string }) => t.key)).toEqual(['free', 'lite', 'starter', 'explorer', 'voyager', 'pioneer', 'pro', 'legend']);
    expect(body).toEqual(TIERS.map((t) => ({ ...t })));
    expect(Object.keys(body[0]).sort()).toEqual(
      ['key', 'label', 'price', 'limit', 'retentionDays', 'maxPhotoLogs', 'maxServerUsers', 'maxExportsPerMonth', 'maxWebhooks', 'maxBackups', 'maxAlertRules', 'maxCases'].sort(),
    );
  });
});

describe('GET /tiers/current-tier/{serverId}', () => {
  it.each(['owner-1', 'admin-1', 'user-1'])('%s (a member) reads the tier of a server without a subscription', async (user) => {
    const res = await getAs(h, `/tiers/current-tier/${S}`, user);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ tierKey: 'starter', stripeSubscriptionId: null, subscriptionStatus: null, is_cancelling: false });
  });

  it('another tenant gets 404, anonymous 401, an unknown server 404', async () => {
    expect((await getAs(h, `/tiers/current-tier/${OTHER}`, 'owner-1')).statusCode).toBe(404);
    expect((await getAs(h, `/tiers/current-tier/${S}`, null)).statusCode).toBe(401);
    expect((await getAs(h, '/tiers/current-tier/nope', 'owner-1')).statusCode).toBe(404);
  });

  it('follows a published tier change', async () => {
    await h.identity.tier(S, 'legend');
    await expect
      .poll(async () => (await getAs(h, `/tiers/current-tier/${S}`, 'user-1')).json().tierKey, { timeout: 15_000 })
      .toBe('legend');
  });
});
