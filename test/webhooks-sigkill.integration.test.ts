/**
 * At least once across a crash: the webhooks service runs as its own process (TARGET=webhooks,
 * the embedded job queue in its DATA_DIR, the event bus on Redis Streams so the test can publish identity
 * facts and accepted logs as auth, billing and ingestion would). The receiver holds the first delivery
 * open and the test SIGKILLs the process mid-delivery; after a restart on the same folder the delivery is
 * made again with the same webhook-id, so the receiver gets every matched log and can dedupe.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventBus } from '@skald/adapters';
import { LogsBatchAcceptedEvent, MembershipAddedEvent, ServerCreatedEvent, ServerTierChangedEvent, eventMessage, identityMessage } from '@skald/contracts';
import type { EventBus } from '@skald/ports';
import { signAccessToken } from '@skald/service-kit';
import { EMBEDDED_ADAPTERS_ENV, deleteRedisKeys, redisReachable } from '@skald/testing';
import { startReceiver } from '../services/webhooks/test/support/receiver.ts';
import type { Receiver } from '../services/webhooks/test/support/receiver.ts';
import { api } from './support/api-client.ts';
import { eventually, startSkald, waitForOk } from './support/processes.ts';
import type { SkaldProcess } from './support/processes.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';


const reachable = await redisReachable(REDIS_URL);
if (!reachable) console.log(`skipped: Redis not reachable at ${REDIS_URL} (the crash test puts the event bus on it)`);

const root = mkdtempSync(join(tmpdir(), 'skald-webhooks-kill-'));
const prefix = `skaldtest-wh-${randomBytes(6).toString('hex')}`;
const started: SkaldProcess[] = [];
let bus: EventBus;
let receiver: Receiver;
let env: Record<string, string>;
const pair = generateKeyPairSync('ed25519', { privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const token = signAccessToken({ publicKeyPem: pair.publicKey, privateKeyPem: pair.privateKey, issuer: 'skald', audience: 'skald-api' }, { sub: 'owner-k', role: 'user', tv: 0 }, 3600);

async function startWebhooks(): Promise<SkaldProcess> {
  const proc = await startSkald('webhooks', env);
  started.push(proc);
  await waitForOk(proc, '/ready', 30_000);
  return proc;
}

beforeAll(async () => {
  if (!reachable) return;
  const keys = join(root, 'keys');
  mkdirSync(keys, { recursive: true });
  writeFileSync(join(keys, 'public.pem'), pair.publicKey, { mode: 0o600 });
  env = {
    TARGET: 'webhooks',
    DATA_DIR: join(root, 'webhooks'),
    ...EMBEDDED_ADAPTERS_ENV,
    EVENT_BUS: 'redis',
    REDIS_URL,
    REDIS_PREFIX: prefix,
    JWT_PUBLIC_KEY_FILE: join(keys, 'public.pem'),
    SECRETS_KEY: randomBytes(32).toString('base64'),
    OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
  };
  bus = await createEventBus({ kind: 'redis', url: REDIS_URL, prefix: `${prefix}:bus:` });
  receiver = await startReceiver();
}, 60_000); // starts the webhooks process and a receiver

afterAll(async () => {
  for (const proc of started) await proc.kill('SIGKILL');
  await receiver?.close();
  await bus?.close();
  if (reachable) await deleteRedisKeys(REDIS_URL, prefix);
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!reachable)('webhook delivery across a SIGKILL', () => {
  it('delivers a delivery that was in flight when the process was killed, again with the same webhook-id', async () => {
    const first = await startWebhooks();
    await bus.publish([
      identityMessage(ServerCreatedEvent, { serverId: 'srv-k', name: 'Kill Server', ownerId: 'owner-k', tier: 'free', suspended: false, createdAt: new Date().toISOString() }),
      identityMessage(MembershipAddedEvent, { serverId: 'srv-k', userId: 'owner-k', role: 'owner' }),
      identityMessage(ServerTierChangedEvent, { serverId: 'srv-k', tier: 'starter' }),
    ]);
    const created = await eventually('the webhook to be created once the tier is known', async () => {
      const response = await api<{ webhook: { id: string } }>(first.baseUrl, 'POST', '/webhooks', { token, body: { serverId: 'srv-k', url: receiver.url, platform: 'generic' } });
      return response.status === 201 ? response.body.webhook : undefined;
    });

    receiver.answer = (_request, index) => (index === 0 ? { status: 200, hang: true } : { status: 200 });
    await bus.publish([
      eventMessage(LogsBatchAcceptedEvent, 'srv-k', {
        serverId: 'srv-k',
        logs: [{ id: 'log-k-1', createdAt: Date.now(), level: 'error', type: 'Crash', resource: 'core', message: 'in flight when killed', metadata: null, logType: 'text', imageKey: null, thumbKey: null }],
      }),
    ]);
    await eventually('the first attempt to reach the receiver', async () => (receiver.requests.length >= 1 ? true : undefined));
    await first.kill('SIGKILL');
    expect(first.child.signalCode).toBe('SIGKILL');

    const second = await startWebhooks();
    await eventually('the delivery made again after the restart', async () => (receiver.requests.length >= 2 ? true : undefined), 30_000);
    const [before, after] = receiver.requests;
    expect(after!.headers['webhook-id']).toBe(before!.headers['webhook-id']);
    expect((after!.body['data'] as { logs: { message: string }[] }).logs.map((l) => l.message)).toEqual(['in flight when killed']);
    const state = await eventually('the success to be recorded', async () => {
      const list = await api<{ webhooks: { id: string; last_success: boolean | null }[] }>(second.baseUrl, 'GET', '/webhooks?serverId=srv-k', { token });
      const webhook = list.body.webhooks?.find((w) => w.id === created.id);
      return webhook?.last_success === true ? webhook : undefined;
    });
    expect(state.last_success).toBe(true);
    expect(second.output()).not.toContain(receiver.url);
  }, 90_000); // SIGKILLs the process mid-delivery and waits for the redelivery
});
