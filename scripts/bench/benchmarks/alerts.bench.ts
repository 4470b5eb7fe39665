/**
 * What 100 alert rules on one server cost (docs/ALERTS.md). Two measurements, each against a baseline of
 * the same run, the same service, a second Legend server without any rule:
 *
 *   1. The ingest rate (the target): the all-in-one's auth, ingestion and webhooks on the embedded adapters
 *      (the SQLite bus journal and document store, the embedded job queue), logs POSTed to /api/logs in
 *      requests of 100 (BENCH_ALERTS_REQUESTS, default 1000, 8 connections): logs accepted and consumed by
 *      the alerts consumer group per second, from the first request until the group's lag is 0. Target:
 *      with the rules, at least 95 % of the rate without. Beside it the process's CPU time per log (the
 *      HTTP client included, alike on both sides), which the machine's other load disturbs less than a rate.
 *   2. The stream alone: BENCH_ALERTS_BATCHES (default 200) accepted batches of 100 logs published on the
 *      bus as the ingestion service does, until every consumer group of the webhooks service consumed them:
 *      what the rules cost the consumer itself, against a consumer that has nothing to evaluate.
 *
 * The rules (made through the routes, the tier's limit): 20 threshold and 5 absence rules whose filters
 * match every benchmark log (each adds to its window, reads it back, moves its absence clock), 75 that match
 * none (other types, levels, searches, metadata); thresholds out of reach, so nothing fires or is delivered.
 * Runs of the two kinds alternate BENCH_ALERTS_ROUNDS times (default 7, after one warm-up of each), the
 * order flipped every round; the figures are medians.
 * Run: `npm run bench -- alerts` or `node scripts/bench/benchmarks/alerts.bench.ts`.
 */
import { loadavg } from 'node:os';
import { LogsBatchAcceptedEvent, eventMessage } from '@skald/contracts';
import type { AlertList } from '@skald/contracts';
import type { EventBus } from '@skald/ports';
import { createHttpApp, signAccessToken } from '@skald/service-kit';
import { createIdentitySeeder, createTestDeps, waitFor } from '@skald/testing';
import { createWebhooksServiceWith } from '@skald/webhooks-service/testing';
import { ALERTS_CONSUMER_GROUP } from '../../../services/webhooks/src/events/alert-consumer.ts';
import { acceptedData } from '../harness/accepted-event.ts';
import { startBenchAllInOne } from '../harness/bench-all-in-one.ts';
import type { BenchRow } from '../harness/bench-row.ts';
import { postRequests } from '../harness/http-load.ts';
import { describeSpread, spread } from '../harness/pinned/stats.ts';

const ROUNDS = Number(process.env['BENCH_ALERTS_ROUNDS'] ?? 7);
const BATCHES = Number(process.env['BENCH_ALERTS_BATCHES'] ?? 200);
const REQUESTS = Number(process.env['BENCH_ALERTS_REQUESTS'] ?? 1000);
const CONNECTIONS = 8;
const LOGS_PER_BATCH = 100;
const PUBLISH_AT_ONCE = 20;
const RULES = 100;
const OWNER = 'bench-owner';
const WITH_RULES = '0195f2c4-0000-7000-8000-00000000a1e7';
const WITHOUT_RULES = '0195f2c4-0000-7000-8000-0000000000b0';

/** The 100 rules: 25 whose filters match the benchmark's logs (player_join, info, qb-core), 75 that do not. */
function ruleBodies(serverId: string): Record<string, unknown>[] {
  const matching = [{ type: 'player_join' }, { level: 'info' }, { resource: 'qb-core' }, { search: 'joined the server' }, { metadata: { citizenid: 'ABC12345' } }];
  const other = [{ type: 'AntiCheat' }, { level: 'error' }, { resource: 'es_extended' }, { search: 'crashed' }, { metadata: { citizenid: 'ZZZ99999' } }, { level: 'fatal', type: 'Server' }];
  const bodies: Record<string, unknown>[] = [];
  for (let i = 0; i < RULES; i++) {
    const base = { serverId, name: `Rule ${i}`, webhookIds: [], enabled: true, windowSeconds: 300 };
    if (i < 20) bodies.push({ ...base, kind: 'threshold', filter: matching[i % matching.length], threshold: 1_000_000 });
    else if (i < 25) bodies.push({ ...base, kind: 'absence', filter: matching[i % matching.length], windowSeconds: 3_600 });
    else bodies.push({ ...base, kind: i % 5 === 0 ? 'absence' : 'threshold', filter: other[i % other.length], threshold: i % 5 === 0 ? null : 10 });
  }
  return bodies;
}

/** The stream alone: the webhooks service built by the test kit, batches published on its bus. */
async function setUpStream() {
  const deps = await createTestDeps({ service: 'webhooks' });
  const module = await createWebhooksServiceWith(deps);
  const app = createHttpApp({ logLevel: 'silent' });
  await app.register(async (scope) => module.routes(scope));
  await app.ready();
  await module.start();
  const token = signAccessToken(deps.keys, { sub: OWNER, role: 'user', tv: 0 }, 3_600);
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload }) });
  const identity = createIdentitySeeder(deps.bus);
  await identity.user(OWNER);
  for (const serverId of [WITH_RULES, WITHOUT_RULES]) {
    await identity.server({ serverId, ownerId: OWNER, tier: 'legend' });
    await waitFor(async () => (await call('GET', `/alerts?serverId=${serverId}`)).statusCode === 200, `server ${serverId} known`, 10_000);
  }
  for (const body of ruleBodies(WITH_RULES)) {
    const res = await call('POST', '/alerts', body);
    if (res.statusCode !== 201) throw new Error(`create rule: ${res.statusCode} ${res.body}`);
  }
  const list = (await call('GET', `/alerts?serverId=${WITH_RULES}`)).json<AlertList>();
  if (list.count !== RULES || list.limit !== RULES) throw new Error(`expected ${RULES} rules within the limit, got ${list.count} of ${list.limit}`);

  let index = 0;
  /** Every consumer group of the service has consumed everything published (the alerts group included). */
  const drained = async (): Promise<void> => {
    for (;;) {
      const lags = (await deps.bus.consumerLag?.()) ?? [];
      if (lags.some((l) => l.group === ALERTS_CONSUMER_GROUP) && lags.every((l) => l.lag === 0)) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  return {
    /** Publishes BATCHES batches for the server and waits until they are consumed: logs/s and CPU µs per log. */
    async run(serverId: string): Promise<Run> {
      await drained();
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (let sent = 0; sent < BATCHES; sent += PUBLISH_AT_ONCE) {
        const messages = Array.from({ length: Math.min(PUBLISH_AT_ONCE, BATCHES - sent) }, () => {
          index += 1;
          return eventMessage(LogsBatchAcceptedEvent, serverId, acceptedData(index, LOGS_PER_BATCH, serverId));
        });
        await deps.bus.publish(messages);
      }
      await drained();
      return { rate: (BATCHES * LOGS_PER_BATCH) / ((performance.now() - started) / 1000), cpuPerLog: cpuMicros(cpu) / (BATCHES * LOGS_PER_BATCH) };
    },
    /** Rules still ok: none fired (so no delivery work was measured with the rules). */
    async firing(): Promise<number> {
      return (await call('GET', `/alerts?serverId=${WITH_RULES}`)).json<AlertList>().alerts.filter((a) => a.state !== 'ok').length;
    },
    async close() {
      await app.close();
      await module.stop();
      await deps.cleanup();
    },
  };
}

/** The alerts group of `bus` has consumed everything published. */
async function alertsDrained(bus: EventBus): Promise<void> {
  for (;;) {
    const lags = ((await bus.consumerLag?.()) ?? []).filter((l) => l.group === ALERTS_CONSUMER_GROUP);
    if (lags.length > 0 && lags.every((l) => l.lag === 0)) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The ingest path: the all-in-one's auth, ingestion and webhooks, two Legend servers, one with the 100 rules. */
async function setUpIngest() {
  const bench = await startBenchAllInOne({ name: 'alerts', services: ['auth', 'ingestion', 'webhooks'], factories: { webhooks: (deps) => createWebhooksServiceWith(deps) } });
  const { app, address, auth } = bench;
  const servers = [await bench.legendServer('With rules'), await bench.legendServer('Without rules')];
  const webhooksBus = bench.depsOf('webhooks').bus;
  const [withRules, without] = servers as [{ id: string; apiKey: string }, { id: string; apiKey: string }];
  await waitFor(async () => (await app.inject({ method: 'GET', url: `/api/alerts?serverId=${without.id}`, headers: auth })).json<AlertList>().limit === RULES, 'the Legend tier in the webhooks service', 20_000);
  await waitFor(async () => (await app.inject({ method: 'GET', url: `/api/alerts?serverId=${withRules.id}`, headers: auth })).json<AlertList>().limit === RULES, 'the Legend tier in the webhooks service', 20_000);
  for (const body of ruleBodies(withRules.id)) {
    const res = await app.inject({ method: 'POST', url: '/api/alerts', headers: auth, payload: body });
    if (res.statusCode !== 201) throw new Error(`create rule: ${res.statusCode} ${res.body}`);
  }
  // The benchmark's logs as the stream benchmark's: FiveM joins (player_join, info, qb-core, a citizenid).
  const body = JSON.stringify(acceptedData(0, LOGS_PER_BATCH, withRules.id).logs.map((log) => ({ message: log.message, level: log.level, type: log.type, resource: log.resource, metadata: log.metadata })));
  // Ingestion learns each key from the bus: wait until both are accepted.
  for (const server of servers) {
    await waitFor(async () => (await app.inject({ method: 'POST', url: '/api/logs', headers: { 'x-api-key': server.apiKey }, payload: [{ message: 'probe' }] })).statusCode === 201, 'the API key in ingestion', 20_000);
  }
  return {
    withRules: withRules.id,
    without: without.id,
    /** Posts REQUESTS requests of 100 logs for the server (8 at a time), until the alerts group consumed them: logs/s. */
    async run(serverId: string): Promise<Run> {
      const apiKey = servers.find((s) => s.id === serverId)!.apiKey;
      await alertsDrained(webhooksBus);
      const cpu = process.cpuUsage();
      const started = performance.now();
      const { created } = await postRequests(`${address}/api/logs`, body, { 'x-api-key': apiKey }, { requests: REQUESTS, connections: CONNECTIONS });
      const accepted = created * LOGS_PER_BATCH;
      await alertsDrained(webhooksBus);
      if (accepted < REQUESTS * LOGS_PER_BATCH) throw new Error(`only ${accepted} of ${REQUESTS * LOGS_PER_BATCH} logs accepted`);
      return { rate: accepted / ((performance.now() - started) / 1000), cpuPerLog: cpuMicros(cpu) / accepted };
    },
    async firing(): Promise<number> {
      return (await app.inject({ method: 'GET', url: `/api/alerts?serverId=${withRules.id}`, headers: auth })).json<AlertList>().alerts.filter((a) => a.state !== 'ok').length;
    },
    close: () => bench.close(),
  };
}

/** One run: logs per second, and the process's CPU time (user and system, all threads) per log in µs. */
interface Run {
  readonly rate: number;
  readonly cpuPerLog: number;
}

function cpuMicros(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}

interface Bench {
  run(serverId: string): Promise<Run>;
  firing(): Promise<number>;
  close(): Promise<void>;
}

/** One warm-up of each, then ROUNDS alternating rounds: logs/s with and without the rules. */
async function measure(bench: Bench, withRules: string, without: string): Promise<{ rated: number[]; base: number[]; ratedCpu: number[]; baseCpu: number[] }> {
  const rated: number[] = [];
  const base: number[] = [];
  const ratedCpu: number[] = [];
  const baseCpu: number[] = [];
  try {
    await bench.run(withRules);
    await bench.run(without);
    for (let round = 0; round < ROUNDS; round++) {
      // The order flips every round, so a change of machine load falls on both alike.
      const order = round % 2 === 0 ? [withRules, without] : [without, withRules];
      for (const serverId of order) {
        const run = await bench.run(serverId);
        (serverId === withRules ? rated : base).push(run.rate);
        (serverId === withRules ? ratedCpu : baseCpu).push(run.cpuPerLog);
      }
    }
    const firing = await bench.firing();
    if (firing !== 0) throw new Error(`${firing} rules fired during the benchmark: thresholds meant to be out of reach`);
    return { rated, base, ratedCpu, baseCpu };
  } finally {
    await bench.close();
  }
}

export async function run(): Promise<BenchRow[]> {
  const ingest = await setUpIngest();
  const viaHttp = await measure(ingest, ingest.withRules, ingest.without);
  const stream = await measure(await setUpStream(), WITH_RULES, WITHOUT_RULES);
  const rate = (n: number) => `${Math.round(n).toLocaleString('en-US')} logs/s`;
  const load = `load average ${loadavg()[0]!.toFixed(1)}`;
  const rules = '25 rules match every log (20 threshold, 5 absence), 75 none';
  const httpRated = spread(viaHttp.rated);
  const httpBase = spread(viaHttp.base);
  const httpRatio = httpRated.median / httpBase.median;
  const streamRated = spread(stream.rated);
  const streamBase = spread(stream.base);
  const micros = (n: number) => `${n.toFixed(2)} µs`;
  const httpCpu = spread(viaHttp.ratedCpu);
  const httpCpuBase = spread(viaHttp.baseCpu);
  const httpContext = `${ROUNDS} runs of each (${REQUESTS} requests of ${LOGS_PER_BATCH} logs, ${CONNECTIONS} connections), alternating; ${load}`;
  return [
    {
      name: 'ingest rate, 100 alert rules on the server (accepted and consumed by the alerts group)',
      value: Math.round(httpRated.median),
      unit: 'logs/s',
      baseline: `no rules: ${rate(httpBase.median)} (${describeSpread(httpBase, rate)})`,
      note: `${describeSpread(httpRated, rate)}; ${rules}; ${httpContext}`,
    },
    {
      name: 'ingest rate with 100 alert rules, share of the rate without',
      value: Math.round(httpRatio * 1000) / 10,
      unit: '%',
      target: '>= 95 %',
      pass: httpRatio >= 0.95,
      note: httpContext,
    },
    {
      name: 'ingest CPU time per log, 100 alert rules on the server (the whole process: HTTP client, ingestion, bus, consumers)',
      value: Math.round(httpCpu.median * 100) / 100,
      unit: 'µs',
      baseline: `no rules: ${micros(httpCpuBase.median)} (${describeSpread(httpCpuBase, micros)})`,
      note: `${describeSpread(httpCpu, micros)}; the rules cost ${Math.round(((httpCpu.median - httpCpuBase.median) / httpCpuBase.median) * 1000) / 10} % more CPU per log; ${httpContext}`,
    },
    {
      name: 'accepted-logs stream alone, 100 alert rules (webhooks consumers only)',
      value: Math.round(streamRated.median),
      unit: 'logs/s',
      baseline: `no rules: ${rate(streamBase.median)} (${describeSpread(streamBase, rate)})`,
      note: `${describeSpread(streamRated, rate)}: ${Math.round((streamRated.median / streamBase.median) * 100)} % of a consumer with nothing to evaluate; ${ROUNDS} runs of each (${BATCHES} batches of ${LOGS_PER_BATCH} logs published on the bus); ${load}`,
    },
  ];
}

export default run;

if (import.meta.main) {
  const rows = await run();
  console.table(rows.map((r) => ({ metric: r.name, value: r.value, unit: r.unit, target: r.target ?? '', baseline: r.baseline ?? '', note: r.note ?? '' })));
}
