/**
 * Webhook URLs, chat ids and signing secrets never reach the log output: the service's request and
 * delivery log lines, at info level, through creation, edits, failed and refused deliveries, retries, dead letters, a 410, tests and replays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookList } from '@skald/contracts';
import { waitFor } from '@skald/testing';
import { acceptedLog, as, createHarness, createWebhook, publishBatch, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { startReceiver } from './support/receiver.ts';
import type { Receiver } from './support/receiver.ts';

const S = 'srv-logs';
const lines: string[] = [];
let h: Harness;
let r: Receiver;

beforeAll(async () => {
  const logStream = { write: (line: string) => void lines.push(line) };
  h = await createHarness({}, { logStream, logLevel: 'info' });
  await seedServer(h, { serverId: S, ownerId: 'owner', tier: 'legend' });
  r = await startReceiver('127.0.0.1', '/hooks/SECRET-PATH-TOKEN-7?key=QUERYSECRET');
});

afterAll(async () => {
  await h.close();
  await r.close();
});

describe('log output', () => {
  it('holds no webhook URL path, chat id or signing secret', async () => {
    const { id, secret } = await createWebhook(h, 'owner', { serverId: S, url: r.url, platform: 'generic' });
    const telegram = await createWebhook(h, 'owner', { serverId: S, url: r.url, platform: 'telegram', chat_id: 'CHATID-SECRET-99' });
    r.answer = () => ({ status: 500, body: 'nope' });
    await publishBatch(h, S, [acceptedLog()]);
    const state = async () => (await as(h, 'owner', 'GET', `/webhooks?serverId=${S}`)).json<WebhookList>().webhooks;
    await waitFor(async () => (await state()).every((w) => w.dead_letters_count === 1), 'dead letters');
    await as(h, 'owner', 'POST', `/webhooks/${id}/test`);
    const dead = (await state()).find((w) => w.id === id)!.dead_letters[0]!;
    await as(h, 'owner', 'POST', `/webhooks/${id}/replay/${dead.id}`);
    r.answer = () => ({ status: 410 });
    await as(h, 'owner', 'POST', `/webhooks/${telegram.id}/test`);
    h.setAllowed([]);
    await as(h, 'owner', 'POST', `/webhooks/${id}/test`);
    await as(h, 'owner', 'PUT', `/webhooks/${id}`, { url: r.url, platform: 'generic' });
    h.setAllowed(['127.0.0.1']);

    const output = lines.join('');
    expect(lines.length).toBeGreaterThan(10);
    for (const needle of ['SECRET-PATH-TOKEN-7', 'QUERYSECRET', 'CHATID-SECRET-99', secret!.slice(6)]) expect(output, needle).not.toContain(needle);
  });
});
