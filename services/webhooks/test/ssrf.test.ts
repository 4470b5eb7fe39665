/**
 * The SSRF matrix through the webhooks routes and delivery (docs/OUTBOUND.md):
 * with an empty OUTBOUND_ALLOWED_HOSTS every private, loopback, link-local, unique-local or mapped
 * destination is refused at save; a destination saved while allowed is refused at send (delivery, retry,
 * test, replay); a name that re-resolves to loopback is refused at send; a redirect is not followed. Real
 * loopback listeners count connections: none may arrive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookList } from '@skald/contracts';
import { createOutboundGuard } from '@skald/service-kit';
import { waitFor } from '@skald/testing';
import { acceptedLog, as, createHarness, createWebhook, publishBatch, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { startReceiver } from './support/receiver.ts';
import type { Receiver } from './support/receiver.ts';

const S = 'srv-ssrf';
let h: Harness;
let listener: Receiver;
const extra: Receiver[] = [];

beforeAll(async () => {
  h = await createHarness({ allowed: [] });
  await seedServer(h, { serverId: S, ownerId: 'owner', tier: 'legend' });
  listener = await startReceiver('127.0.0.1');
});

afterAll(async () => {
  await h.close();
  await listener.close();
  for (const r of extra) await r.close();
});

const count = async () => (await as(h, 'owner', 'GET', `/webhooks?serverId=${S}`)).json<WebhookList>().count;
const state = async (id: string) => (await as(h, 'owner', 'GET', `/webhooks?serverId=${S}`)).json<WebhookList>().webhooks.find((w) => w.id === id)!;

describe('refused at save (empty allow-list)', () => {
  const port = () => listener.port;
  const destinations = () => [
    `http://127.0.0.1:${port()}/hook`,
    `http://localhost:${port()}/hook`,
    `http://127.1:${port()}/hook`,
    `http://0x7f.0.0.1:${port()}/hook`,
    `http://017700000001:${port()}/hook`,
    `http://0.0.0.0:${port()}/hook`,
    'http://10.0.0.1/hook',
    'http://172.16.0.1/hook',
    'http://192.168.0.1/hook',
    'http://100.64.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    `http://[::1]:${port()}/hook`,
    'http://[fd00::1]/hook',
    'http://[fe80::1]/hook',
    `http://[::ffff:127.0.0.1]:${port()}/hook`,
    `http://[::ffff:7f00:1]:${port()}/hook`,
    'http://224.0.0.1/hook',
  ];

  it('answers 400 for every private destination, on create and on edit, and stores nothing', async () => {
    for (const url of destinations()) {
      const res = await as(h, 'owner', 'POST', '/webhooks', { serverId: S, url, platform: 'generic' });
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ error: string }>().error, url).toMatch(/^The destination .* is not allowed/);
    }
    expect(await count()).toBe(0);
    expect(listener.connections).toBe(0);
  });

  it('refuses a host name that resolves to 127.0.0.1', async () => {
    h.setGuard(createOutboundGuard({ allowed: [], resolver: async () => [{ address: '127.0.0.1', family: 4 }] }));
    const res = await as(h, 'owner', 'POST', '/webhooks', { serverId: S, url: `http://127.0.0.1.nip.io:${listener.port}/hook`, platform: 'discord' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toContain('127.0.0.1.nip.io (127.0.0.1)');
    h.setAllowed([]);
    expect(listener.connections).toBe(0);
  });
});

describe('refused at send', () => {
  it('refuses delivery, test and replay once the destination is no longer allowed: no connection, a dead letter', async () => {
    h.setAllowed(['127.0.0.1']);
    const { id } = await createWebhook(h, 'owner', { serverId: S, url: listener.url, platform: 'generic' });
    h.setAllowed([]);
    await publishBatch(h, S, [acceptedLog()]);
    await waitFor(async () => (await state(id)).dead_letters_count === 1, 'dead letter of the refused delivery');
    const dead = (await state(id)).dead_letters[0]!;
    expect(dead.error_message).toMatch(/^The destination 127\.0\.0\.1 is not allowed/);

    const test = await as(h, 'owner', 'POST', `/webhooks/${id}/test`);
    expect(test.statusCode).toBe(502);
    expect(test.json()).toMatchObject({ error: 'Webhook test failed', message: expect.stringMatching(/is not allowed/) });
    const replay = await as(h, 'owner', 'POST', `/webhooks/${id}/replay/${dead.id}`);
    expect(replay.statusCode).toBe(502);
    expect(listener.connections).toBe(0);
    expect(listener.requests).toHaveLength(0);
  });

  it('refuses at send a name that resolved public at save and resolves to loopback now (rebinding)', async () => {
    let answer = '93.184.216.34';
    h.setGuard(createOutboundGuard({ allowed: [], resolver: async () => [{ address: answer, family: 4 }] }));
    const { id } = await createWebhook(h, 'owner', { serverId: S, url: `http://rebind.example:${listener.port}/hook`, platform: 'slack' });
    answer = '127.0.0.1';
    const test = await as(h, 'owner', 'POST', `/webhooks/${id}/test`);
    expect(test.statusCode).toBe(502);
    expect(test.json<{ message: string }>().message).toContain('rebind.example (127.0.0.1) is not allowed');
    expect(listener.connections).toBe(0);
    h.setAllowed([]);
  });

  it('does not follow a redirect to a private address: the 302 is a failed attempt, the target sees nothing', async () => {
    const target = await startReceiver('127.0.0.2');
    const redirecting = await startReceiver('127.0.0.1');
    extra.push(target, redirecting);
    redirecting.answer = () => ({ status: 302, headers: { location: target.url } });
    h.setAllowed(['127.0.0.1']);
    const { id } = await createWebhook(h, 'owner', { serverId: S, url: redirecting.url, platform: 'generic' });
    const test = await as(h, 'owner', 'POST', `/webhooks/${id}/test`);
    expect(test.statusCode).toBe(502);
    expect(test.json<{ message: string }>().message).toContain('HTTP 302');
    await publishBatch(h, S, [acceptedLog()]);
    await waitFor(async () => (await state(id)).dead_letters_count === 2, 'the redirected delivery dead-lettered after its attempts');
    expect(redirecting.requests.length).toBe(4);
    expect(target.connections).toBe(0);
    h.setAllowed([]);
  });
});
