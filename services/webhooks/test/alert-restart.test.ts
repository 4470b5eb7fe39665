/**
 * An absence rule's clock is durable: the service stops halfway through the window, a new instance opens
 * the same document store, and the rule fires on time (one tick after the window ends), once.
 */
import { afterAll, expect, it } from 'vitest';
import type { ApiAlertRule } from '@skald/contracts';
import { createTestDeps, waitFor } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import { as, createHarness, createWebhook, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { startReceiver } from './support/receiver.ts';
import type { Receiver } from './support/receiver.ts';

const A = 'srv-restart';
let clock = Date.UTC(2026, 10, 2, 8, 0, 0);
const open: { harness?: Harness; deps: TestDeps[]; receiver?: Receiver } = { deps: [] };

afterAll(async () => {
  await open.harness?.close();
  for (const deps of open.deps.reverse()) await deps.cleanup();
  await open.receiver?.close();
});

const options = { now: () => clock, alertTickMs: 25, alertMinWindowSeconds: 10 };

it('fires an absence rule on time after a restart in the middle of its window', async () => {
  const receiver = await startReceiver();
  open.receiver = receiver;
  const first = await createTestDeps({ service: 'webhooks' });
  open.deps.push(first);
  const before = await createHarness(options, { deps: first });
  open.harness = before;
  await before.identity.user('owner');
  await seedServer(before, { serverId: A, ownerId: 'owner', tier: 'starter' });
  const webhook = await createWebhook(before, 'owner', { serverId: A, url: receiver.url, platform: 'generic' });
  const res = await as(before, 'owner', 'POST', '/alerts', { serverId: A, name: 'Server heartbeat', kind: 'absence', filter: { type: 'Heartbeat' }, windowSeconds: 600, webhookIds: [webhook.id], enabled: true });
  expect(res.statusCode).toBe(201);
  const rule = res.json<{ alert: ApiAlertRule }>().alert;

  clock += 300_000;
  await before.close();
  open.harness = undefined;

  // A new instance over the same files (its document store opened anew); the fake clock goes on.
  const second = await createTestDeps({ service: 'webhooks', shareWith: first });
  open.deps.push(second);
  const after = await createHarness(options, { deps: second });
  open.harness = after;
  clock += 299_000;
  const listed = await as(after, 'owner', 'GET', `/alerts?serverId=${A}`);
  expect(listed.json<{ alerts: ApiAlertRule[] }>().alerts[0]).toMatchObject({ id: rule.id, state: 'ok' });
  expect(receiver.requests).toHaveLength(0);

  clock += 1_000;
  await waitFor(() => receiver.requests.length === 1, 'the absence firing after the restart');
  expect(receiver.requests[0]!.body).toMatchObject({ type: 'alert.firing', data: { rule: { id: rule.id }, count: 600 } });
  expect((await as(after, 'owner', 'GET', `/alerts?serverId=${A}`)).json<{ alerts: ApiAlertRule[] }>().alerts[0]!.state).toBe('firing');
});
