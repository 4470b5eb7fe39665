/**
 * Webhooks, all-in-one: the real gateway app (auth, ingestion, logs and webhooks on the embedded
 * adapters: SQLite bus journal, embedded job queue) with a local Discord-like receiver on 127.0.0.1 that
 * answers at once (allowed through OUTBOUND_ALLOWED_HOSTS, as an operator would).
 *
 *   1. The ingest rate (batches of 100 logs, 8 connections) without any webhook, then with a Discord webhook
 *      that matches 1 % of the logs, alternating twice in the same run: matching and delivery must cost the
 *      ingest path < 10 %.
 *   2. 10,000 matching logs ingested (100 requests of 100) to a generic webhook: logs matched and delivered
 *      per second, and each log's ingest-to-delivery time (its acceptance time, carried in the payload's
 *      created_at, to its arrival at the receiver): p50 and p95, target p95 < 2 s.
 *
 * Run: `node scripts/bench/benchmarks/webhooks.bench.ts` (or `npm run bench -- webhooks`); BENCH_DURATION_S sets the
 * seconds of each ingest-rate measurement (default 10).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { quotaKey, quotaWindowStart } from '@skald/contracts';
import { createWebhooksServiceWith } from '@skald/webhooks-service/testing';
import type { BenchRow } from '../harness/bench-row.ts';
import { startBenchAllInOne } from '../harness/bench-all-in-one.ts';
import { DURATION_S, okPerSecond, postLoad, postRequests } from '../harness/http-load.ts';

const BATCH = 100;
const CONNECTIONS = 8;
const MATCHING_LOGS = 10_000;

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Counts every embed it receives and how long after its log's acceptance it arrived. */
async function startReceiver() {
  const latencies: number[] = [];
  let messages = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      messages += 1;
      // Discord embeds carry each log's acceptance time as `timestamp`, generic payloads as `created_at`.
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { embeds?: { timestamp: string; title: string }[]; data?: { logs?: { type: string; created_at: string }[] } };
      for (const embed of body.embeds ?? []) if (embed.title.endsWith('Alert')) latencies.push(now - Date.parse(embed.timestamp));
      for (const log of body.data?.logs ?? []) if (log.type === 'Alert') latencies.push(now - Date.parse(log.created_at));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/1/bench`,
    latencies,
    messages: () => messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Waits until read() has not changed for quietMs (the pipeline behind the bus has drained). */
async function settle(read: () => Promise<number>, quietMs: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  let since = Date.now();
  while (Date.now() - since < quietMs && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const next = await read();
    if (next !== value) {
      value = next;
      since = Date.now();
    }
  }
  return value;
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

export async function run(): Promise<BenchRow[]> {
  const receiver = await startReceiver();
  const bench = await startBenchAllInOne({
    name: 'webhooks',
    services: ['auth', 'ingestion', 'logs', 'webhooks'],
    env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' },
    factories: { webhooks: (deps) => createWebhooksServiceWith(deps) },
  });
  try {
    const { app, address, auth } = bench;
    const { id: serverId, apiKey } = await bench.legendServer('Bench');
    const ingestionDeps = bench.depsOf('ingestion');
    const logsDeps = bench.depsOf('logs');
    const headers = { 'x-api-key': apiKey };
    const resetQuota = () => ingestionDeps.counters.reset(quotaKey(serverId, quotaWindowStart(Date.now())));
    const log = (i: number, type: string) => ({ message: `bench log line ${i}`, level: 'info', type, resource: `res-${i % 10}`, metadata: { i } });
    // 1 % of the load matches the webhook of phase 1b.
    const mixed = JSON.stringify(Array.from({ length: BATCH }, (_, i) => log(i, i === 0 ? 'Alert' : 'Bench')));
    for (let i = 0; i < 200; i++) {
      const probe = await app.inject({ method: 'POST', url: '/api/logs', headers, payload: Array.from({ length: 1000 }, () => ({ message: 'probe' })) });
      const second = await app.inject({ method: 'POST', url: '/api/logs', headers, payload: Array.from({ length: 1000 }, () => ({ message: 'probe' })) });
      if (probe.statusCode === 201 && second.statusCode === 201) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    // Each phase starts with the logs service's store caught up, so no phase pays for the previous one's backlog.
    const drainLogs = () => settle(() => logsDeps.logStore.count(serverId), 1_000, 300_000);
    // Without and with the webhook, twice each, alternating (A B A B): a machine whose load drifts during the
    // run then weighs on both figures alike. Each phase starts with the logs store caught up.
    /** Accepted logs per second of one measured phase (2xx answers only). */
    const phase = async (): Promise<{ rate: number; ok: number }> => {
      await drainLogs();
      await resetQuota();
      const result = await postLoad(`${address}/api/logs`, mixed, headers, CONNECTIONS);
      return { rate: okPerSecond(result) * BATCH, ok: result['2xx'] };
    };
    let webhookId: string | null = null;
    const setWebhook = async (on: boolean) => {
      if (on) {
        const created = await app.inject({ method: 'POST', url: '/api/webhooks', headers: auth, payload: { serverId, url: receiver.url, platform: 'discord', event_type: 'alert' } });
        if (created.statusCode !== 201) throw new Error(`webhook create: ${created.statusCode} ${created.body}`);
        webhookId = (created.json() as { webhook: { id: string } }).webhook.id;
      } else if (webhookId !== null) {
        await app.inject({ method: 'DELETE', url: `/api/webhooks/${webhookId}`, headers: auth });
        webhookId = null;
      }
    };
    const ratesWithout: number[] = [];
    const ratesWith: number[] = [];
    let expectedFromLoad = 0;
    for (let round = 0; round < 2; round += 1) {
      await setWebhook(false);
      ratesWithout.push((await phase()).rate);
      await setWebhook(true);
      const delivered = receiver.latencies.length;
      const measured = await phase();
      ratesWith.push(measured.rate);
      expectedFromLoad += measured.ok;
      // The matched logs of this phase (one per request) reach the receiver before the next phase.
      await until(() => receiver.latencies.length >= delivered + measured.ok, 300_000);
    }
    const drained = receiver.latencies.length >= expectedFromLoad;
    const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const rateWithout = mean(ratesWithout);
    const rateWith = mean(ratesWith);
    const cost = 1 - rateWith / rateWithout;

    // Phase 2: 10,000 matching logs, 100 requests of 100, 8 at a time, to a generic webhook (a receiver of
    // one's own: up to 100 logs per message). Discord's 10 embeds per message would make it 1,000 messages,
    // which Discord itself would pace over minutes (its per-webhook rate limit), whatever Skald does.
    await setWebhook(false);
    const generic = await app.inject({ method: 'POST', url: '/api/webhooks', headers: auth, payload: { serverId, url: receiver.url, platform: 'generic', event_type: 'alert' } });
    if (generic.statusCode !== 201) throw new Error(`webhook create: ${generic.statusCode} ${generic.body}`);
    await drainLogs();
    receiver.latencies.length = 0;
    const messagesBefore = receiver.messages();
    await resetQuota();
    const alerts = JSON.stringify(Array.from({ length: BATCH }, (_, i) => log(i, 'Alert')));
    const started = performance.now();
    const { refused } = await postRequests(`${address}/api/logs`, alerts, headers, { requests: MATCHING_LOGS / BATCH, connections: CONNECTIONS });
    const ingestSeconds = (performance.now() - started) / 1000;
    const complete = await until(() => receiver.latencies.length >= MATCHING_LOGS, 300_000);
    const deliveredSeconds = (performance.now() - started) / 1000;
    const sorted = [...receiver.latencies].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    const p95 = percentile(sorted, 95);
    const baseline = `without webhooks ${Math.round(rateWithout).toLocaleString('en-US')} logs/s`;
    const load = `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores at the end`;
    return [
      { name: 'ingest rate without webhooks (100/request)', value: Math.round(rateWithout), unit: 'logs/s', note: `${CONNECTIONS} connections, 2 × ${DURATION_S} s alternating with the next row; ${load}` },
      { name: 'ingest rate with a webhook matching 1 %', value: Math.round(rateWith), unit: 'logs/s', baseline, note: drained ? `${expectedFromLoad.toLocaleString('en-US')} matched logs delivered` : 'deliveries did not drain within 5 min' },
      { name: 'ingest throughput lost to matching', value: Math.round(cost * 1000) / 10, unit: '%', target: '< 10 %', pass: cost < 0.1, baseline },
      { name: `${MATCHING_LOGS.toLocaleString('en-US')} matching logs: ingest rate`, value: Math.round(MATCHING_LOGS / ingestSeconds), unit: 'logs/s', note: `${refused} requests refused` },
      { name: `${MATCHING_LOGS.toLocaleString('en-US')} matching logs: matched and delivered`, value: Math.round(receiver.latencies.length / deliveredSeconds), unit: 'logs/s', note: complete ? `generic webhook; ${(receiver.messages() - messagesBefore).toLocaleString('en-US')} messages` : `only ${receiver.latencies.length} delivered` },
      { name: 'ingest-to-delivery p50', value: p50, unit: 'ms' },
      { name: 'ingest-to-delivery p95', value: p95, unit: 'ms', target: '< 2000 ms', pass: complete && p95 < 2000 },
    ];
  } finally {
    await bench.close();
    await receiver.close();
  }
}

export default run;

if (import.meta.main) console.table(await run());
