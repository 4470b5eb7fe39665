/**
 * Reliability: 100k logs through the gateway (all-in-one app in-process, real embedded adapters)
 * while the logs consumer is stopped and restarted twice; afterwards stored == accepted, with no duplicates.
 * A malformed message on the logs topic goes to the dead-letter topic and does not hold up the rest.
 * The API key never appears in a captured log line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@skald/config';
import { ServerTierChangedEvent, TOPICS, publishEvent } from '@skald/contracts';
import { deadLetterTopic } from '@skald/ports';
import type { BusMessage, Subscription } from '@skald/ports';
import type { ServiceDeps, ServiceModule } from '@skald/service-kit';
import { createLogsServiceWith } from '@skald/logs-service/testing';
import type { LogsServiceControl } from '@skald/logs-service/testing';
import { buildAllInOne } from '../gateway/src/all-in-one.ts';
import { FAST_PASSWORDS_ENV } from '../gateway/test/support/all-in-one.ts';
import type { RunningProcess } from '../gateway/src/launcher-app.ts';

const TOTAL_LOGS = 100_000;
const BATCH = 1000;
const CONCURRENCY = 4;

let dir: string;
let proc: RunningProcess;
let logsDeps: ServiceDeps;
let logsModule: ServiceModule & LogsServiceControl;
const lines: string[] = [];

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skald-reliability-'));
  const config = loadConfig({ ...FAST_PASSWORDS_ENV, TARGET: 'all', DATA_DIR: dir, LOG_LEVEL: 'info' });
  proc = await buildAllInOne(config, {
    services: ['auth', 'ingestion', 'logs'],
    webDist: join(dir, 'no-web'),
    logStream: { write: (line: string) => void lines.push(line) },
    factories: {
      // The real logs service; the test keeps its deps (bus, log store) and its consumer control.
      logs: async (deps) => {
        logsDeps = deps;
        logsModule = await createLogsServiceWith(deps);
        return logsModule;
      },
    },
  });
  await proc.start();
}, 60_000); // starts the all-in-one pipeline and seeds a server

afterAll(async () => {
  await proc?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('log pipeline reliability', () => {
  it('stores exactly the accepted logs when the logs consumer stops and restarts twice; a malformed message is dead-lettered', async () => {
    const { app } = proc;
    const register = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { username: 'reliable', password: 'correct horse battery staple 42', email: 'reliable@example.com' } });
    expect(register.statusCode).toBe(201);
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'reliable', password: 'correct horse battery staple 42' } });
    const token: string = login.json().token;
    const created = await app.inject({ method: 'POST', url: '/api/server/servers', headers: { authorization: `Bearer ${token}` }, payload: { name: 'Reliability' } });
    expect(created.statusCode).toBeLessThan(300);
    const { id: serverId, api_key: apiKey } = created.json() as { id: string; api_key: string };
    // 100k logs need more than the free tier's 1000 per hour: the tier change billing/admin would publish.
    await publishEvent(logsDeps.bus, ServerTierChangedEvent, serverId, { serverId, tier: 'legend' });
    await waitFor(
      async () => (await app.inject({ method: 'GET', url: `/api/server/usage/${serverId}`, headers: { authorization: `Bearer ${token}` } })).json().tierLabel,
      (label) => label === 'Legend',
      15_000,
    );

    const dead: BusMessage[] = [];
    const dlq: Subscription = await logsDeps.bus.subscribe({ group: 'reliability-dlq', topics: [deadLetterTopic(TOPICS.logsIngested)], handler: async (m) => void dead.push(m) });

    const accepted = new Set<string>();
    let refused429 = 0;
    const batches = TOTAL_LOGS / BATCH;
    async function send(b: number): Promise<void> {
      const payload = Array.from({ length: BATCH }, (_, i) => ({ message: `reliability ${b}-${i}`, level: i % 7 === 0 ? 'error' : 'info', type: 'Reliability', resource: `res-${b % 5}`, metadata: { b, i } }));
      for (;;) {
        const res = await app.inject({ method: 'POST', url: '/api/logs', headers: { 'x-api-key': apiKey }, payload });
        if (res.statusCode === 429) {
          // The ingestion read model may see the tier change a moment after the logs one; nothing was accepted.
          refused429 += 1;
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        expect(res.statusCode, res.body).toBe(201);
        for (const id of (res.json() as { ids: string[] }).ids) accepted.add(id);
        return;
      }
    }

    let next = 0;
    const storedWhileStopped: { atStop: number; beforeRestart: number; acceptedBeforeRestart: number }[] = [];
    const stop = async () => {
      await logsModule.stopConsumer();
      storedWhileStopped.push({ atStop: await logsDeps.logStore.count(serverId), beforeRestart: -1, acceptedBeforeRestart: -1 });
    };
    const restart = async () => {
      const last = storedWhileStopped.at(-1)!;
      last.beforeRestart = await logsDeps.logStore.count(serverId);
      last.acceptedBeforeRestart = accepted.size;
      await logsModule.startConsumer();
    };
    const events: Record<number, () => Promise<void>> = {
      20: stop,
      40: restart,
      50: async () => {
        await logsDeps.bus.publish([
          { topic: TOPICS.logsIngested, key: serverId, headers: { 'event-type': 'logs.batch-accepted.v1' }, payload: { type: 'logs.batch-accepted', version: 1, id: 'bad-1', occurredAt: new Date().toISOString(), data: { serverId, logs: [{ id: 'x' }] } } },
        ]);
      },
      60: stop,
      80: restart,
    };
    const started = Date.now();
    while (next < batches) {
      const wave = [];
      for (let k = 0; k < CONCURRENCY && next < batches; k += 1) {
        const b = next;
        next += 1;
        const hook = events[b];
        if (hook) await hook();
        wave.push(send(b));
      }
      await Promise.all(wave);
    }
    const ingestMs = Date.now() - started;
    expect(accepted.size).toBe(TOTAL_LOGS);
    // While stopped, nothing was stored and a backlog of 20 batches built up on the bus.
    expect(storedWhileStopped).toHaveLength(2);
    for (const window of storedWhileStopped) {
      expect(window.beforeRestart).toBe(window.atStop);
      expect(window.acceptedBeforeRestart - window.beforeRestart).toBeGreaterThanOrEqual(20 * BATCH);
    }

    const stored = await waitFor(() => logsDeps.logStore.count(serverId), (n) => n >= TOTAL_LOGS, 90_000);
    const drainedMs = Date.now() - started;
    expect(stored).toBe(TOTAL_LOGS);

    // The read API agrees.
    const page = await app.inject({ method: 'GET', url: `/api/logs/my?serverId=${serverId}&page=1&pageSize=5`, headers: { authorization: `Bearer ${token}` } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-total-count']).toBe(String(TOTAL_LOGS));

    // Exactly the accepted ids, each once.
    const storedIds: string[] = [];
    for (let offset = 0; offset < TOTAL_LOGS + 1; offset += 10_000) {
      const chunk = await logsDeps.logStore.query({ serverId, offset, limit: 10_000 });
      for (const item of chunk.items) storedIds.push(item.id);
    }
    expect(storedIds.length).toBe(TOTAL_LOGS);
    expect(new Set(storedIds).size).toBe(TOTAL_LOGS);
    expect(storedIds.every((id) => accepted.has(id))).toBe(true);

    await waitFor(async () => dead.length, (n) => n >= 1, 10_000);
    expect(dead[0]!.headers['x-original-topic']).toBe(TOPICS.logsIngested);
    await dlq.stop();

    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.includes(apiKey))).toEqual([]);
    console.log(`reliability: stored while stopped ${JSON.stringify(storedWhileStopped)}; ${TOTAL_LOGS} logs accepted in ${ingestMs} ms, all stored after ${drainedMs} ms; ${refused429} early 429s retried`);
  }, 240_000); // 100k logs through the pipeline while its consumer stops and restarts twice
});
