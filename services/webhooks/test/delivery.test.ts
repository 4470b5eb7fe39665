/**
 * Delivery: one local receiver per platform on 127.0.0.1 checks its platform's payload shape;
 * matching by type, level and resource (case-insensitive, null = all); bursts grouped; retries, dead letters,
 * replay, 429 with Retry-After, 410, the test button; a Standard Webhooks signature a receiver can verify.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookList } from '@skald/contracts';
import { waitFor } from '@skald/testing';
import { acceptedLog, as, createHarness, createWebhook, publishBatch, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { PLATFORM_CHECKS } from './support/platform-checks.ts';
import { startReceiver } from './support/receiver.ts';
import type { Receiver } from './support/receiver.ts';

let h: Harness;
const receivers: Receiver[] = [];
let serverSeq = 0;

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

/** A fresh legend-tier server (50 webhooks) owned by 'owner'. */
async function server(): Promise<string> {
  serverSeq += 1;
  const serverId = `srv-d${serverSeq}`;
  await seedServer(h, { serverId, ownerId: 'owner', tier: 'legend', name: `Server ${serverSeq}` });
  return serverId;
}

async function webhookState(serverId: string, id: string) {
  const list = (await as(h, 'owner', 'GET', `/webhooks?serverId=${serverId}`)).json<WebhookList>();
  return list.webhooks.find((w) => w.id === id)!;
}

// A fixed wait, kept on purpose: after the awaited deliveries it proves no second delivery follows;
// a receiver that got nothing gives no signal to wait for.
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

beforeAll(async () => {
  h = await createHarness();
});

afterAll(async () => {
  await h.close();
  for (const r of receivers) await r.close();
});

describe('delivery to each platform', () => {
  it('sends each platform its documented payload, only the matching logs, case-insensitively', async () => {
    const serverId = await server();
    const byPlatform = new Map<string, Receiver>();
    for (const [platform, { chat_id }] of Object.entries(PLATFORM_CHECKS)) {
      const r = await receiver();
      byPlatform.set(platform, r);
      await createWebhook(h, 'owner', { serverId, url: r.url, platform, chat_id: chat_id ?? null, event_type: 'kill', log_level: 'ERROR', resource: null });
    }
    const catchAll = await receiver();
    await createWebhook(h, 'owner', { serverId, url: catchAll.url, platform: 'generic' });
    const shopOnly = await receiver();
    await createWebhook(h, 'owner', { serverId, url: shopOnly.url, platform: 'generic', resource: 'SHOP' });

    await publishBatch(h, serverId, [
      acceptedLog({ level: 'error', type: 'Kill', resource: 'pvp', message: 'boom <@everyone>', metadata: { x: 1 } }),
      acceptedLog({ level: 'info', type: 'Kill', resource: 'pvp', message: 'wrong level' }),
      acceptedLog({ level: 'error', type: 'Chat', resource: 'shop', message: 'wrong type' }),
    ]);
    for (const [platform, r] of byPlatform) {
      await waitFor(async () => r.requests.length >= 1, `${platform} delivery`);
      PLATFORM_CHECKS[platform]!.check(r.requests[0]!);
      expect(r.requests[0]!.headers['content-type']).toBe('application/json');
    }
    await waitFor(async () => catchAll.requests.length === 1 && shopOnly.requests.length === 1, 'catch-all and resource deliveries');
    expect((catchAll.requests[0]!.body['data'] as { logs: unknown[] }).logs).toHaveLength(3);
    expect((shopOnly.requests[0]!.body['data'] as { logs: { message: string }[] }).logs.map((l) => l.message)).toEqual(['wrong type']);
    await settle();
    for (const r of byPlatform.values()) expect(r.requests).toHaveLength(1);
  });

  it('signs generic deliveries the Standard Webhooks way with the secret shown at creation', async () => {
    const serverId = await server();
    const r = await receiver();
    const { secret } = await createWebhook(h, 'owner', { serverId, url: r.url, platform: 'generic' });
    await publishBatch(h, serverId, [acceptedLog()]);
    await waitFor(async () => r.requests.length === 1, 'signed delivery');
    const { headers, raw } = r.requests[0]!;
    const key = Buffer.from(secret!.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`${String(headers['webhook-id'])}.${String(headers['webhook-timestamp'])}.${raw}`).digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
  });

  it('groups a burst: 25 matching logs reach Discord as 3 messages of at most 10 embeds', async () => {
    const serverId = await server();
    const r = await receiver();
    await createWebhook(h, 'owner', { serverId, url: r.url, platform: 'discord' });
    await publishBatch(h, serverId, Array.from({ length: 25 }, () => acceptedLog()));
    await waitFor(async () => r.requests.length === 3, 'three Discord messages');
    const sizes = r.requests.map((q) => (q.body['embeds'] as unknown[]).length).sort((a, b) => b - a);
    expect(sizes).toEqual([10, 10, 5]);
  });

  it('delivers to no webhook of a server on a tier without webhooks, or suspended', async () => {
    const serverId = await server();
    const r = await receiver();
    await createWebhook(h, 'owner', { serverId, url: r.url, platform: 'generic' });
    // Identity facts and log batches travel on different topics: wait until each fact is applied (a tier
    // change published after it on the same key is visible as the list's limit) before publishing logs.
    const limitIs = (limit: number) => waitFor(async () => (await as(h, 'owner', 'GET', `/webhooks?serverId=${serverId}`)).json<WebhookList>().limit === limit, `limit ${limit}`);
    await h.identity.suspended(serverId, true);
    await h.identity.tier(serverId, 'pro');
    await limitIs(20);
    // The batch is routed when consumed: wait for it (its type shows in the options) before the next fact.
    const consumed = (type: string) => waitFor(async () => (await as(h, 'owner', 'GET', `/webhooks/options?serverId=${serverId}`)).body.includes(type), `${type} consumed`);
    await publishBatch(h, serverId, [acceptedLog({ message: 'while suspended', type: 'Suspended' })]);
    await consumed('Suspended');
    await h.identity.suspended(serverId, false);
    await h.identity.tier(serverId, 'free');
    await limitIs(0);
    await publishBatch(h, serverId, [acceptedLog({ message: 'on the free tier', type: 'Free' })]);
    await consumed('Free');
    await h.identity.tier(serverId, 'legend');
    await limitIs(50);
    await publishBatch(h, serverId, [acceptedLog({ message: 'after upgrade' })]);
    await waitFor(async () => r.requests.length >= 1, 'delivery after upgrade');
    await settle();
    expect(r.requests.map((q) => (q.body['data'] as { logs: { message: string }[] }).logs[0]!.message)).toEqual(['after upgrade']);
  });
});

describe('retries, dead letters and replay', () => {
  it('retries a 500 and delivers once when the receiver recovers; failed_attempts back to 0', async () => {
    const serverId = await server();
    const r = await receiver();
    r.answer = (_q, i) => ({ status: i === 0 ? 500 : 200 });
    const { id } = await createWebhook(h, 'owner', { serverId, url: r.url, platform: 'generic' });
    await publishBatch(h, serverId, [acceptedLog()]);
    await waitFor(async () => (await webhookState(serverId, id)).last_success === true, 'delivered after a retry');
    await settle();
    expect(r.requests).toHaveLength(2);
    expect(r.requests[0]!.headers['webhook-id']).toBe(r.requests[1]!.headers['webhook-id']);
    expect(await webhookState(serverId, id)).toMatchObject({ last_status_code: 200, failed_attempts: 0, dead_letters_count: 0 });
  });

  it('dead-letters after the last attempt; replay after recovery delivers it (same id) and clears it', async () => {
    const serverId = await server();
    const r = await receiver();
    r.answer = () => ({ status: 500, body: 'down for maintenance' });
    const { id } = await createWebhook(h, 'owner', { serverId, url: r.url, platform: 'generic' });
    await publishBatch(h, serverId, [acceptedLog({ message: 'must not be lost' })]);
    await waitFor(async () => (await webhookState(serverId, id)).dead_letters_count === 1, 'dead letter');
    const state = await webhookState(serverId, id);
    expect(r.requests).toHaveLength(3);
    expect(state).toMatchObject({ last_success: false, last_status_code: 500, failed_attempts: 3 });
    const dead = state.dead_letters[0]!;
    expect(dead.error_message).toBe('The receiver answered HTTP 500: down for maintenance (after 3 attempts)');
    expect(dead.payload).toContain('must not be lost');
    expect(dead.payload).not.toContain(r.url);

    const failedReplay = await as(h, 'owner', 'POST', `/webhooks/${id}/replay/${dead.id}`);
    expect(failedReplay.statusCode).toBe(502);
    expect(failedReplay.json()).toMatchObject({ error: 'Replay failed' });
    expect((await webhookState(serverId, id)).dead_letters_count).toBe(1);

    r.answer = () => ({ status: 204 });
    const replay = await as(h, 'owner', 'POST', `/webhooks/${id}/replay/${dead.id}`);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ message: 'Replay sent', status_code: 204 });
    expect(r.requests.at(-1)!.headers['webhook-id']).toBe(r.requests[0]!.headers['webhook-id']);
    expect(await webhookState(serverId, id)).toMatchObject({ dead_letters_count: 0, dead_letters: [], last_success: true, failed_attempts: 0 });
  });

  it('honours a 429 Retry-After: waits, then delivers, without a failure or a dead letter', async () => {
    const serverId = await server();
    const r = await receiver();
    r.answer = (_q, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '1' }, body: '{"retry_after":1}' } : { status: 200 });
    const { id } = await createWebhook(h, 'owner', { serverId, url: r.url, platform: 'discord' });
    await publishBatch(h, serverId, [acceptedLog()]);
    await waitFor(async () => r.requests.length === 2, 'delivery after the wait', 10_000);
    const first = r.requests[0]!;
    expect(first).toBeDefined();
    await waitFor(async () => (await webhookState(serverId, id)).last_success === true, 'success recorded');
    expect(await webhookState(serverId, id)).toMatchObject({ failed_attempts: 0, dead_letters_count: 0 });
  });

  it('waits out Retry-After before trying again', async () => {
    const serverId = await server();
    const r = await receiver();
    const times: number[] = [];
    r.answer = (_q, i) => {
      times.push(Date.now());
      return i === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 };
    };
    await createWebhook(h, 'owner', { serverId, url: r.url, platform: 'slack' });
    await publishBatch(h, serverId, [acceptedLog()]);
    await waitFor(async () => times.length === 2, 'second try', 10_000);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
  });

  it('disables the webhook on a 410 and says so; editing re-enables it', async () => {
    const serverId = await server();
    const r = await receiver();
    r.answer = () => ({ status: 410 });
    const { id } = await createWebhook(h, 'owner', { serverId, url: r.url, platform: 'slack' });
    await publishBatch(h, serverId, [acceptedLog()]);
    await waitFor(async () => !(await webhookState(serverId, id)).enabled, 'disabled');
    const state = await webhookState(serverId, id);
    expect(state.disabled_reason).toContain('410');
    expect(state).toMatchObject({ last_status_code: 410, dead_letters_count: 1 });
    expect(r.requests).toHaveLength(1);
    await publishBatch(h, serverId, [acceptedLog()]);
    await settle();
    expect(r.requests).toHaveLength(1);
    const edit = await as(h, 'owner', 'PUT', `/webhooks/${id}`, { url: r.url, platform: 'slack' });
    expect(edit.json<{ webhook: { enabled: boolean; disabled_reason: string | null } }>().webhook).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it('sends a test at once; a failed test is an attempt with no status and a dead letter that replays', async () => {
    const serverId = await server();
    const r = await receiver();
    const { id } = await createWebhook(h, 'owner', { serverId, url: r.url, platform: 'discord' });
    const ok = await as(h, 'owner', 'POST', `/webhooks/${id}/test`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: 'Test sent', status_code: 200 });
    expect((r.requests[0]!.body['embeds'] as { description: string }[])[0]!.description).toContain('test message from Skald');

    const closedPort = r.port;
    await r.close();
    const failed = await as(h, 'owner', 'POST', `/webhooks/${id}/test`);
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({ error: 'Webhook test failed', message: expect.stringContaining('Could not connect to 127.0.0.1') });
    expect(failed.body).not.toContain(String(closedPort) + '/hook');
    const state = await webhookState(serverId, id);
    expect(state).toMatchObject({ last_success: false, last_status_code: null, failed_attempts: 1, dead_letters_count: 1 });

    const cleared = await as(h, 'owner', 'DELETE', `/webhooks/${id}/dead-letters/${state.dead_letters[0]!.id}`);
    expect(cleared.json()).toEqual({ message: 'Dead letter removed', removed: 1 });
    await as(h, 'owner', 'POST', `/webhooks/${id}/test`);
    await as(h, 'owner', 'POST', `/webhooks/${id}/test`);
    const all = await as(h, 'owner', 'DELETE', `/webhooks/${id}/dead-letters`);
    expect(all.json()).toEqual({ message: 'Dead letters removed', removed: 2 });
    expect((await webhookState(serverId, id)).dead_letters_count).toBe(0);
  });

  it('ends the pending retries of a deleted webhook without sending them', async () => {
    const serverId = await server();
    const r = await receiver();
    r.answer = () => ({ status: 500 });
    const { id } = await createWebhook(h, 'owner', { serverId, url: r.url, platform: 'generic' });
    await h.module.stopWorker();
    await publishBatch(h, serverId, [acceptedLog()]);
    await settle();
    await as(h, 'owner', 'DELETE', `/webhooks/${id}`);
    await h.module.startWorker();
    await settle();
    expect(r.requests).toHaveLength(0);
  });
});

describe('grouping across batches', () => {
  it('packs the logs of 30 one-log batches arriving within the gather window into Discord messages of 10', async () => {
    const g = await createHarness({ delivery: { gatherMs: 1_000 } });
    try {
      await seedServer(g, { serverId: 'srv-g', ownerId: 'owner', tier: 'legend' });
      const r = await receiver();
      await createWebhook(g, 'owner', { serverId: 'srv-g', url: r.url, platform: 'discord' });
      await Promise.all(Array.from({ length: 30 }, (_, i) => publishBatch(g, 'srv-g', [acceptedLog({ message: `burst ${i}` })])));
      await waitFor(async () => r.requests.reduce((n, q) => n + (q.body['embeds'] as unknown[]).length, 0) === 30, 'all 30 logs delivered', 10_000);
      expect(r.requests.length).toBeLessThanOrEqual(6);
      const messages = r.requests.flatMap((q) => (q.body['embeds'] as { description: string }[]).map((e) => e.description));
      expect(new Set(messages).size).toBe(30);
    } finally {
      await g.close();
    }
  });
});
