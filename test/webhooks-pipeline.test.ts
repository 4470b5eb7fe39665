/**
 * Logs ingested through the public API reach the right webhooks: the ingestion and webhooks
 * services built by their real factories on ONE shared bus and job queue (createTestDeps({ shareWith })), one
 * local receiver per platform on 127.0.0.1 (allowed as OUTBOUND_ALLOWED_HOSTS would), each checking its
 * platform's payload shape; a webhook filtered on another server's type receives nothing, and a server's
 * logs never reach another tenant's webhooks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIngestionService } from '@skald/ingestion-service';
import { createOutboundGuard } from '@skald/service-kit';
import { buildTestService, createTestDeps, waitFor, type TestDeps } from '@skald/testing';
import type { TestService } from '@skald/testing';
import { createWebhooksServiceWith } from '@skald/webhooks-service/testing';
import { PLATFORM_CHECKS } from '../services/webhooks/test/support/platform-checks.ts';
import { startReceiver } from '../services/webhooks/test/support/receiver.ts';
import type { Receiver } from '../services/webhooks/test/support/receiver.ts';

const KEY_A = 'sk_pipeline_a_0123456789abcdef';
const KEY_B = 'sk_pipeline_b_0123456789abcdef';
let webhooks: TestService;
let ingestion: TestService;
const receivers: Receiver[] = [];

const ingest = (key: string, payload: object) => ingestion.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': key }, payload });

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

async function addWebhook(owner: string, body: Record<string, unknown>): Promise<void> {
  const res = await webhooks.injectAs({ id: owner }, { method: 'POST', url: '/webhooks', payload: body });
  expect(res.statusCode, res.body).toBe(201);
}

// Deps given to buildTestService are the caller's to clean up: the webhooks' own the shared folder.
let webhooksDeps: TestDeps | undefined;
let ingestionDeps: TestDeps | undefined;

beforeAll(async () => {
  webhooksDeps = await createTestDeps({ service: 'webhooks', overrides: { outbound: createOutboundGuard({ allowed: ['127.0.0.1'] }) } });
  webhooks = await buildTestService((d) => createWebhooksServiceWith(d, { delivery: { gatherMs: 20, retryBaseMs: 20 } }), { deps: webhooksDeps });
  ingestionDeps = await createTestDeps({ service: 'ingestion', shareWith: webhooksDeps });
  ingestion = await buildTestService(createIngestionService, { deps: ingestionDeps });
  await webhooks.identity.server({ serverId: 'srv-a', ownerId: 'owner-a', tier: 'legend', apiKey: KEY_A });
  await webhooks.identity.server({ serverId: 'srv-b', ownerId: 'owner-b', tier: 'legend', apiKey: KEY_B });
  await waitFor(async () => (await ingest(KEY_A, { message: 'warm-up' })).statusCode === 201 && (await ingest(KEY_B, { message: 'warm-up' })).statusCode === 201, 'ingestion to know both keys');
  await waitFor(async () => (await webhooks.injectAs({ id: 'owner-b' }, { method: 'GET', url: '/webhooks?serverId=srv-b' })).json<{ limit: number }>().limit === 50, 'webhooks to know the tiers');
});

afterAll(async () => {
  await ingestion?.close();
  await webhooks?.close();
  await ingestionDeps?.cleanup();
  await webhooksDeps?.cleanup();
  for (const r of receivers) await r.close();
});

describe('public API -> webhooks', () => {
  it('delivers each platform its payload for the logs it matches, and nothing of another tenant', async () => {
    const byPlatform = new Map<string, Receiver>();
    for (const [platform, { chat_id }] of Object.entries(PLATFORM_CHECKS)) {
      const r = await receiver();
      byPlatform.set(platform, r);
      await addWebhook('owner-a', { serverId: 'srv-a', url: r.url, platform, chat_id: chat_id ?? null, event_type: 'KILL', log_level: 'error', resource: null });
    }
    const otherType = await receiver();
    await addWebhook('owner-a', { serverId: 'srv-a', url: otherType.url, platform: 'generic', event_type: 'Chat' });
    const otherTenant = await receiver();
    await addWebhook('owner-b', { serverId: 'srv-b', url: otherTenant.url, platform: 'generic' });

    const accepted = await ingest(KEY_A, [
      { message: 'boom <@everyone>', level: 'error', type: 'Kill', resource: 'pvp', metadata: { x: 1 } },
      { message: 'a kill at info level', level: 'info', type: 'Kill', resource: 'pvp' },
      { message: 'an error of another type', level: 'error', type: 'Join', resource: 'pvp' },
    ]);
    expect(accepted.statusCode).toBe(201);

    for (const [platform, r] of byPlatform) {
      await waitFor(async () => r.requests.length >= 1, `${platform} delivery`);
      PLATFORM_CHECKS[platform]!.check(r.requests[0]!);
    }
    // A fixed wait, kept on purpose: it proves no second delivery and none to the other receivers, which send no signal.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const r of byPlatform.values()) expect(r.requests).toHaveLength(1);
    expect(otherType.requests).toHaveLength(0);
    expect(otherTenant.connections).toBe(0);
  });
});
