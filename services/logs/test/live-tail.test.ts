/**
 * GET /logs/tail over a real socket: logs published as ingestion publishes them (logs.batch-accepted on
 * the bus) reach a member's open tail through the service's own consumer, filtered like /logs/my (how
 * soon, within a second, is the live-tail benchmark's target, not a test's); resume with Last-Event-ID
 * replays from the store without gaps or duplicates; bounded per server and per process with a message;
 * heartbeats; access re-checked while open; shutdown says so.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogsBatchAcceptedEvent, eventMessage } from '@skald/contracts';
import type { AcceptedLog, ApiLog, LogTailEnd } from '@skald/contracts';
import { openEventStream, waitFor } from '@skald/testing';
import type { EventStreamClient, SseEvent } from '@skald/testing';
import { createHarness, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import type { LogsServiceOptions } from '../src/logs-service.ts';

const S = 'srv-1';
const OTHER = 'srv-2';
let h: Harness;
let base: string;
const clients: EventStreamClient[] = [];

/** UUIDv7-shaped ids in increasing order, `ms` the time they carry. */
let seq = 0;
function logId(ms: number): string {
  seq += 1;
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${seq.toString(16).padStart(3, '0')}-8000-000000000000`;
}

function accepted(overrides: Partial<AcceptedLog> = {}): AcceptedLog {
  const createdAt = overrides.createdAt ?? Date.now();
  return { id: logId(createdAt), createdAt, level: 'info', type: 'General', resource: 'core', message: 'hello', metadata: null, logType: 'text', imageKey: null, thumbKey: null, ...overrides };
}

async function ingest(serverId: string, logs: AcceptedLog[]): Promise<void> {
  await h.deps.bus.publish([eventMessage(LogsBatchAcceptedEvent, serverId, { serverId, logs })]);
}

async function start(options: Omit<LogsServiceOptions, 'now'> = {}): Promise<void> {
  h = await createHarness(options);
  await seedServer(h, { serverId: S, ownerId: 'owner-1' }, { 'user-1': 'user' });
  await seedServer(h, { serverId: OTHER, ownerId: 'stranger' });
  base = await h.app.listen({ host: '127.0.0.1', port: 0 });
}

async function tail(query: string, user: string | null = 'user-1', headers: Record<string, string> = {}): Promise<EventStreamClient> {
  const auth: Record<string, string> = user === null ? {} : { authorization: `Bearer ${h.tokenFor({ id: user })}` };
  const client = await openEventStream(`${base}/logs/tail?${query}`, { ...auth, ...headers });
  clients.push(client);
  return client;
}

const logs = (client: EventStreamClient): ApiLog[] => client.events.filter((e) => e.event === 'log').map((e) => JSON.parse(e.data) as ApiLog);
const isReady = (e: SseEvent): boolean => e.event === 'ready';

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await h.close();
});

describe('GET /logs/tail', () => {
  beforeEach(() => start());

  it('streams a stored batch to a member with the user role, as event-stream frames with the log id', async () => {
    const client = await tail(`serverId=${S}`);
    expect(client.status).toBe(200);
    expect(client.headers.get('content-type')).toBe('text/event-stream');
    expect(client.headers.get('cache-control')).toBe('no-cache, no-transform');
    await client.waitForEvent(isReady, 'ready');
    const log = accepted({ message: 'Ann joined', metadata: { player: 'Ann' } });
    await ingest(S, [log]);
    // The default bound: the latency target lives in scripts/bench/benchmarks/live-tail.bench.ts.
    const event = await client.waitForEvent((e) => e.event === 'log', 'the log');
    expect(event.id).toBe(log.id);
    expect(JSON.parse(event.data)).toEqual({
      id: log.id,
      created_at: new Date(log.createdAt).toISOString(),
      received_at: new Date(log.createdAt).toISOString(),
      level: 'info',
      type: 'General',
      resource: 'core',
      message: 'Ann joined',
      metadata: { player: 'Ann' },
      log_type: 'text',
      image_path: null,
      thumb_path: null,
    });
  });

  it('applies the /logs/my filters and leaves photo logs and other servers out', async () => {
    const client = await tail(`serverId=${S}&level=ERROR&search=sword&type=death&resource=Arena`);
    await client.waitForEvent(isReady, 'ready');
    const match = accepted({ level: 'error', type: 'Death', resource: 'arena', message: 'Cid fell', metadata: { weapon: 'Sword_of_Doom' } });
    await ingest(OTHER, [accepted({ level: 'error', type: 'Death', resource: 'arena', message: 'sword elsewhere' })]);
    await ingest(S, [
      accepted({ level: 'info', type: 'Death', resource: 'arena', message: 'sword' }),
      accepted({ level: 'error', type: 'Chat', resource: 'arena', message: 'sword' }),
      accepted({ level: 'error', type: 'Death', resource: 'lobby', message: 'sword' }),
      accepted({ level: 'error', type: 'Death', resource: 'arena', message: 'no blade' }),
      accepted({ level: 'error', type: 'Death', resource: 'arena', message: 'sword photo', logType: 'photo', imageKey: `photos/${S}/p.webp`, thumbKey: `thumbs/${S}/p.webp` }),
      match,
    ]);
    await client.waitForEvent((e) => e.event === 'log', 'the matching log');
    // A later log proves the earlier non-matching ones were passed over, not merely slow.
    const last = accepted({ level: 'error', type: 'death', resource: 'ARENA', message: 'SWORD again' });
    await ingest(S, [last]);
    await waitFor(() => logs(client).length === 2, 'two matching logs');
    expect(logs(client).map((l) => l.id)).toEqual([match.id, last.id]);
  });

  it('refuses without a token (401), another tenant (404), a bad Last-Event-ID or date (400), and does not open', async () => {
    expect((await tail(`serverId=${S}`, null)).status).toBe(401);
    const stranger = await tail(`serverId=${S}`, 'stranger');
    expect(stranger.status).toBe(404);
    expect(JSON.parse(stranger.text)).toEqual({ error: 'Server not found.', message: 'Server not found.' });
    expect((await tail(`serverId=${OTHER}`, 'user-1')).status).toBe(404);
    const badId = await tail(`serverId=${S}`, 'user-1', { 'last-event-id': 'log-1; drop table' });
    expect(badId.status).toBe(400);
    expect(JSON.parse(badId.text).message).toBe('Last-Event-ID must be the id of a log the tail sent');
    expect((await tail(`serverId=${S}&dateFrom=2025-13-45`)).status).toBe(400);
    expect((await tail(`serverId=${S}&page=2`)).status).toBe(400);
  });

  it('resumes after Last-Event-ID from the store, oldest first, then goes live without repeating a log', async () => {
    const t = Date.now() - 5_000;
    const stored = [accepted({ createdAt: t, message: 'seen' }), accepted({ createdAt: t + 1, message: 'missed 1' }), accepted({ createdAt: t + 2, message: 'missed 2', level: 'warn' })];
    await ingest(S, stored);
    await waitFor(async () => (await h.deps.logStore.count(S)) === 3, 'three stored');
    const client = await tail(`serverId=${S}`, 'user-1', { 'last-event-id': stored[0]!.id });
    const ready = await client.waitForEvent(isReady, 'ready');
    expect(JSON.parse(ready.data)).toEqual({ replayed: 2 });
    const live = accepted({ message: 'live' });
    await ingest(S, [stored[2]!, live]);
    await waitFor(() => logs(client).length === 3, 'the live log');
    expect(logs(client).map((l) => l.message)).toEqual(['missed 1', 'missed 2', 'live']);
    expect(client.events.filter((e) => e.event === 'log').map((e) => e.id)).toEqual([stored[1]!.id, stored[2]!.id, live.id]);
  });

  it('announces when more logs were missed than a resume replays', async () => {
    await h.close();
    await start({ tail: { catchUpLimit: 2 } });
    const t = Date.now() - 5_000;
    const stored = Array.from({ length: 6 }, (_, i) => accepted({ createdAt: t + i, message: `m${i}` }));
    await ingest(S, stored);
    await waitFor(async () => (await h.deps.logStore.count(S)) === 6, 'six stored');
    const client = await tail(`serverId=${S}`, 'user-1', { 'last-event-id': stored[0]!.id });
    await client.waitForEvent(isReady, 'ready');
    const skipped = client.events.find((e) => e.event === 'skipped');
    expect(JSON.parse(skipped!.data)).toEqual({ count: 3, message: '3 older logs arrived while disconnected and are not replayed here; the list shows them.' });
    expect(logs(client).map((l) => l.message)).toEqual(['m4', 'm5']);
  });
});

describe('GET /logs/tail bounds, heartbeats and endings', () => {
  it('bounds tails per server with a message, and frees the slot when a client leaves', async () => {
    await start({ tail: { perServer: 2, perInstance: 10 } });
    const first = await tail(`serverId=${S}`);
    await tail(`serverId=${S}`, 'owner-1');
    const third = await tail(`serverId=${S}`);
    expect(third.status).toBe(429);
    const limit = 'This server already has 2 live tails open (the limit). Close one, in another tab or by another member, and try again.';
    expect(JSON.parse(third.text)).toEqual({ error: limit, message: limit });
    expect((await tail(`serverId=${OTHER}`, 'stranger')).status).toBe(200);
    first.close();
    await waitFor(async () => {
      const again = await tail(`serverId=${S}`);
      return again.status === 200;
    }, 'a free slot');
  });

  it('bounds tails per process with a message and Retry-After', async () => {
    await start({ tail: { perServer: 5, perInstance: 1 } });
    await tail(`serverId=${S}`);
    const refused = await tail(`serverId=${OTHER}`, 'stranger');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(JSON.parse(refused.text).message).toBe('Live tails are at capacity here (1 open). Try again in a minute.');
  });

  it('sends heartbeats and ends the tail, saying why, once the member is removed', async () => {
    await start({ tail: { heartbeatMs: 50 } });
    const client = await tail(`serverId=${S}`);
    await waitFor(() => client.comments.filter((c) => c === 'ping').length >= 2, 'two heartbeats');
    await h.identity.removeMember(S, 'user-1');
    const end = await client.waitForEvent((e) => e.event === 'end', 'the end event');
    expect(JSON.parse(end.data) as LogTailEnd).toEqual({ error: 'Server not found.', message: 'Server not found.', reconnect: false });
    await waitFor(() => client.ended(), 'the stream to close');
  });

  it('ends open tails with a reconnect hint when the service shuts down, without holding the shutdown', async () => {
    await start();
    const client = await tail(`serverId=${S}`);
    await client.waitForEvent(isReady, 'ready');
    const started = Date.now();
    await h.app.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    const end = await client.waitForEvent((e) => e.event === 'end', 'the end event');
    expect(JSON.parse(end.data)).toEqual({
      error: 'The server is restarting. The live tail reconnects by itself.',
      message: 'The server is restarting. The live tail reconnects by itself.',
      reconnect: true,
    });
  });
});

