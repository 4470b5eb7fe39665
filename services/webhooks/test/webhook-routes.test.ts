/**
 * The webhook routes (docs/spec/part-1.txt sections 3, 5, 7): create, list, edit, delete, options, the tier's
 * limit, the spec's validation texts, the role matrix and other tenants on every route, audit entries
 * without secrets, and webhook URLs and secrets absent from the data folder.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditRecordedEvent, TELEGRAM_CHAT_ID_REQUIRED } from '@skald/contracts';
import type { SavedWebhook, WebhookList, WebhookOptions } from '@skald/contracts';
import { waitFor } from '@skald/testing';
import { WEBHOOKS_NOT_IN_TIER, webhookLimitReached } from '../src/domain/limits.ts';
import { URL_HAS_CREDENTIALS } from '../src/domain/webhook-input.ts';
import { acceptedLog, as, createHarness, createWebhook, publishBatch, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const A = 'srv-a';
const B = 'srv-b';
let h: Harness;

beforeAll(async () => {
  h = await createHarness();
  await h.identity.user('owner-a');
  await h.identity.user('admin-a');
  await seedServer(h, { serverId: A, ownerId: 'owner-a', tier: 'starter' }, { 'admin-a': 'admin', 'user-a': 'user' });
  await seedServer(h, { serverId: B, ownerId: 'owner-b', tier: 'legend' });
  // Public host names are only resolved here (no receiver): answer them without the network.
  h.setAllowed(['127.0.0.1']);
});

afterAll(async () => {
  await h.close();
});

const list = async (serverId: string, userId = 'owner-a') => (await as(h, userId, 'GET', `/webhooks?serverId=${serverId}`)).json<WebhookList>();

describe('webhook routes', () => {
  let discordId = '';

  it('creates a webhook (empty filters are null), lists it with every field of docs/spec/part-1.txt section 3, limit and count', async () => {
    const res = await as(h, 'owner-a', 'POST', '/webhooks', { serverId: A, url: 'http://127.0.0.1:9/hook', platform: 'discord', chat_id: null, event_type: 'Kill', log_level: '', resource: null });
    expect(res.statusCode).toBe(201);
    const saved = res.json<SavedWebhook>();
    expect(saved.secret).toBeNull();
    discordId = saved.webhook.id;
    const listed = await as(h, 'owner-a', 'GET', `/webhooks?serverId=${A}`);
    // URLs are credentials: neither the list nor the create answer (a secret field) may be cached.
    expect(listed.headers['cache-control']).toBe('no-store');
    expect(res.headers['cache-control']).toBe('no-store');
    const body = listed.json<WebhookList>();
    expect(body.limit).toBe(2);
    expect(body.count).toBe(1);
    expect(body.webhooks[0]).toEqual({
      id: discordId,
      url: 'http://127.0.0.1:9/hook',
      platform: 'discord',
      chat_id: null,
      event_type: 'Kill',
      log_level: null,
      resource: null,
      enabled: true,
      disabled_reason: null,
      last_attempt_time: null,
      last_success: null,
      last_status_code: null,
      failed_attempts: 0,
      dead_letters_count: 0,
      dead_letters: [],
      created_at: expect.any(String),
    });
  });

  it("refuses a telegram webhook without chat_id with the spec's text, on create and on edit, and changes nothing", async () => {
    const create = await as(h, 'owner-a', 'POST', '/webhooks', { serverId: A, url: 'http://127.0.0.1:9/bot', platform: 'telegram', chat_id: '  ' });
    expect(create.statusCode).toBe(400);
    expect(create.json()).toMatchObject({ error: TELEGRAM_CHAT_ID_REQUIRED });
    const edit = await as(h, 'owner-a', 'PUT', `/webhooks/${discordId}`, { url: 'http://127.0.0.1:9/bot', platform: 'telegram' });
    expect(edit.statusCode).toBe(400);
    expect(edit.json()).toMatchObject({ error: TELEGRAM_CHAT_ID_REQUIRED });
    expect((await list(A)).webhooks.map((w) => w.platform)).toEqual(['discord']);
  });

  it('refuses URLs that are not http(s), malformed, or carry a user name and password', async () => {
    for (const [url, error] of [
      ['ftp://127.0.0.1/x', 'Only http and https URLs are allowed.'],
      ['file:///etc/passwd', 'Only http and https URLs are allowed.'],
      ['gopher://127.0.0.1:70/', 'Only http and https URLs are allowed.'],
      ['not a url', 'The URL is not valid.'],
      ['http://user:pass@127.0.0.1/hook', URL_HAS_CREDENTIALS],
    ] as const) {
      const res = await as(h, 'owner-a', 'POST', '/webhooks', { serverId: A, url, platform: 'generic' });
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ error: string }>().error, url).toBe(error);
    }
    expect((await list(A)).count).toBe(1);
  });

  it("answers a generic webhook's signing secret once, at creation; edits keep it and never show it", async () => {
    const created = await createWebhook(h, 'admin-a', { serverId: A, url: 'http://127.0.0.1:9/generic', platform: 'generic' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await as(h, 'owner-a', 'GET', `/webhooks?serverId=${A}`);
    expect(listed.body).not.toContain(created.secret!);
    const edit = await as(h, 'admin-a', 'PUT', `/webhooks/${created.id}`, { url: 'http://127.0.0.1:9/generic2', platform: 'generic', resource: 'Shop' });
    expect(edit.statusCode).toBe(200);
    expect(edit.json<SavedWebhook>()).toMatchObject({ secret: null, webhook: { url: 'http://127.0.0.1:9/generic2', resource: 'Shop' } });
    await as(h, 'owner-a', 'DELETE', `/webhooks/${created.id}`);
  });

  it("refuses a create at the tier's limit, and every create on a tier without webhooks", async () => {
    await createWebhook(h, 'owner-a', { serverId: A, url: 'http://127.0.0.1:9/two', platform: 'slack' });
    const third = await as(h, 'owner-a', 'POST', '/webhooks', { serverId: A, url: 'http://127.0.0.1:9/three', platform: 'slack' });
    expect(third.statusCode).toBe(403);
    expect(third.json()).toMatchObject({ error: webhookLimitReached(2) });
    expect((await list(A)).count).toBe(2);

    await seedServer(h, { serverId: 'srv-free', ownerId: 'owner-a' });
    const free = await as(h, 'owner-a', 'POST', '/webhooks', { serverId: 'srv-free', url: 'http://127.0.0.1:9/x', platform: 'slack' });
    expect(free.statusCode).toBe(403);
    expect(free.json()).toMatchObject({ error: WEBHOOKS_NOT_IN_TIER });
    expect((await list('srv-free')).limit).toBe(0);
  });

  it('edits a webhook (filters back to null), and deletes it', async () => {
    const edit = await as(h, 'owner-a', 'PUT', `/webhooks/${discordId}`, { url: 'http://127.0.0.1:9/edited', platform: 'discord', event_type: null });
    expect(edit.statusCode).toBe(200);
    expect(edit.json<SavedWebhook>().webhook).toMatchObject({ url: 'http://127.0.0.1:9/edited', event_type: null });
    const second = (await list(A)).webhooks[1]!.id;
    expect((await as(h, 'owner-a', 'DELETE', `/webhooks/${second}`)).statusCode).toBe(200);
    expect((await list(A)).count).toBe(1);
  });

  it('answers the types and resources seen in the server\'s own logs, and the five levels', async () => {
    await publishBatch(h, A, [acceptedLog({ type: 'Kill', resource: 'pvp' }), acceptedLog({ type: 'kill', resource: 'Shop' }), acceptedLog({ type: 'Chat', resource: 'pvp' })]);
    await publishBatch(h, B, [acceptedLog({ type: 'OtherTenantType', resource: 'secret-resource' })]);
    await waitFor(async () => (await as(h, 'owner-a', 'GET', `/webhooks/options?serverId=${A}`)).json<WebhookOptions>().eventTypes.length === 2, 'options');
    const options = (await as(h, 'admin-a', 'GET', `/webhooks/options?serverId=${A}`)).json<WebhookOptions>();
    expect(options).toEqual({ eventTypes: ['Chat', 'Kill'], logLevels: ['info', 'warn', 'error', 'fatal', 'debug'], resources: ['pvp', 'Shop'] });
  });

  it('publishes an audit entry per change, without URL, chat_id or secret', async () => {
    await waitFor(async () => h.published.filter((m) => m.headers['event-type'] === AuditRecordedEvent.type).length >= 5, 'audit entries');
    const audits = h.published.filter((m) => m.headers['event-type'] === AuditRecordedEvent.type).map((m) => (m.payload as { data: { action: string; actorEmail: string; serverId: string } }).data);
    expect(audits.map((a) => a.action)).toEqual(expect.arrayContaining(['webhook.created', 'webhook.updated', 'webhook.deleted']));
    expect(audits.find((a) => a.action === 'webhook.created')).toMatchObject({ serverId: A, actorEmail: 'owner-a@skald.test' });
    const text = JSON.stringify(audits);
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toContain('whsec_');
  });

  it('keeps webhook URLs, chat ids and secrets out of the data folder (sealed at rest)', async () => {
    const created = await createWebhook(h, 'owner-b', { serverId: B, url: 'http://127.0.0.1:9/SECRET-PATH-TOKEN-42', platform: 'pagerduty', chat_id: 'ROUTINGKEY0123456789' });
    const generic = await createWebhook(h, 'owner-b', { serverId: B, url: 'http://127.0.0.1:9/generic-b', platform: 'generic' });
    expect(created.id).not.toBe('');
    const files: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else files.push(path);
      }
    };
    await walk(h.deps.root);
    const secretB64 = generic.secret!.slice('whsec_'.length);
    for (const file of files) {
      const bytes = await readFile(file);
      for (const needle of ['SECRET-PATH-TOKEN-42', 'ROUTINGKEY0123456789', secretB64]) expect(bytes.includes(needle), `${needle} in ${file}`).toBe(false);
    }
  });
});

describe('who may call each route', () => {
  let webhookOfA = '';
  beforeAll(async () => {
    webhookOfA = (await list(A)).webhooks[0]!.id;
  });

  const routes = (id: string) =>
    [
      ['GET', `/webhooks?serverId=${A}`, undefined],
      ['GET', `/webhooks/options?serverId=${A}`, undefined],
      ['POST', '/webhooks', { serverId: A, url: 'http://127.0.0.1:9/x', platform: 'slack' }],
      ['PUT', `/webhooks/${id}`, { url: 'http://127.0.0.1:9/x', platform: 'slack' }],
      ['POST', `/webhooks/${id}/test`, undefined],
      ['POST', `/webhooks/${id}/replay/dl-1`, undefined],
      ['DELETE', `/webhooks/${id}/dead-letters/dl-1`, undefined],
      ['DELETE', `/webhooks/${id}/dead-letters`, undefined],
      ['DELETE', `/webhooks/${id}`, undefined],
    ] as const;

  it('answers 401 without a token on every route', async () => {
    for (const [method, url, body] of routes(webhookOfA)) expect((await as(h, null, method, url, body)).statusCode, `${method} ${url}`).toBe(401);
  });

  it('answers 403 to a member with the user role on every route', async () => {
    for (const [method, url, body] of routes(webhookOfA)) {
      const res = await as(h, 'user-a', method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it("answers 404 to the owner of another server on every route (and changes nothing)", async () => {
    for (const [method, url, body] of routes(webhookOfA)) {
      const res = await as(h, 'owner-b', method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await list(A)).webhooks.map((w) => w.id)).toEqual([webhookOfA]);
  });

  it('answers the same 404 for a webhook id that does not exist', async () => {
    const missing = await as(h, 'owner-a', 'PUT', '/webhooks/no-such-webhook', { url: 'http://127.0.0.1:9/x', platform: 'slack' });
    const foreign = await as(h, 'owner-b', 'PUT', `/webhooks/${webhookOfA}`, { url: 'http://127.0.0.1:9/x', platform: 'slack' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(foreign.json());
  });
});
