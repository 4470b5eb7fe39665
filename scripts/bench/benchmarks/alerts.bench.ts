/**
 * What 100 alert rules on one server cost (docs/ALERTS.md, "Cost"). Three measurements, each against a
 * baseline of the same run, the same service, a second Legend server without any rule:
 *
 *   1. The ingest path (the target): the all-in-one's auth, ingestion and webhooks on the embedded adapters
 *      (the SQLite bus journal and document store, the embedded job queue), logs POSTed to /api/logs in
 *      requests of 100 realistic FiveM logs (joins, chat, deaths, money, inventory: harness/fivem-logs.ts)
 *      by a load generator in a process of its own (BENCH_ALERTS_REQUESTS, default 1000, 8 connections),
 *      until the alerts consumer group's lag is 0. Per round: the server process's CPU time per log (user
 *      and system, all threads; the load generator's is not in it) and the rate. The verdict is the CPU a
 *      log: the median over the rounds of (with rules / without) of adjacent rounds, at most 1/0.95 (the
 *      rate >= 95 % of the rate without rules for a process bound by its CPU). The rates are printed beside
 *      it; on the shared 2-core machine they swing with the other load far more than the CPU a log does.
 *   2. The evaluator alone: the alert evaluator's onBatches on the same kind of logs (each batch parsed from
 *      its JSON text, so its logs are new objects as the bus hands them out), called directly in a
 *      loop (BENCH_ALERTS_EVAL_BATCHES batches a round, default 2000), this thread's CPU per batch for the
 *      server with the rules and for one without, rounds alternating; the difference as a share of the
 *      ingest CPU per batch of (1). The least disturbed figure: what the rules add to each batch.
 *   3. The alerts consumer alone: the evaluator of (2) behind the alerts consumer on the embedded bus the
 *      all-in-one uses (no HTTP, no other consumer group), BENCH_ALERTS_BATCHES accepted batches published
 *      as ingestion does, until the group's lag is 0; the process's CPU per batch with the rules and for a
 *      server without, rounds alternating. Beside (2) it tells the bus's share (reads, decoding, commits)
 *      from the rules' share of the gap between (2) and (1).
 *   4. The stream alone: BENCH_ALERTS_BATCHES (default 200) accepted batches published on the bus as the
 *      ingestion service does, until every consumer group of the webhooks service consumed them.
 *
 * The rules (made through the routes, the tier's limit), each with a filter of its own as admins write them:
 * 15 that match some of the logs (a type, a level, a resource, a search, a metadata value, or two of them
 * together: 2 absence rules of frequent types, 13 threshold rules), 85 that match none (anti-cheat and admin
 * types, other resources, searches for crashes and exploits, players watched by citizen id). Thresholds are
 * out of reach and absence windows longer than the run, so nothing fires or is delivered.
 * Runs of the two kinds alternate BENCH_ALERTS_ROUNDS times (default 7, after one warm-up of each), the
 * order flipped every round; the figures are medians.
 * Run: `npm run bench -- alerts` or `node scripts/bench/benchmarks/alerts.bench.ts`.
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { LogsBatchAcceptedEvent, eventMessage } from '@skald/contracts';
import type { AcceptedLog, AlertFilter, AlertKind, AlertList, LogsBatchAccepted } from '@skald/contracts';
import type { EventBus, JobQueue } from '@skald/ports';
import { createHttpApp, signAccessToken } from '@skald/service-kit';
import { createIdentitySeeder, createTestDeps, waitFor } from '@skald/testing';
import { createWebhooksServiceWith } from '@skald/webhooks-service/testing';
import { createAlertEvaluator } from '../../../services/webhooks/src/domain/alerts/alert-evaluator.ts';
import type { AlertEvaluator } from '../../../services/webhooks/src/domain/alerts/alert-evaluator.ts';
import { createAlertStore } from '../../../services/webhooks/src/domain/alerts/alert-store.ts';
import type { AlertSettings } from '../../../services/webhooks/src/domain/alerts/alert-store.ts';
import { ALERTS_CONSUMER_GROUP, startAlertConsumer } from '../../../services/webhooks/src/events/alert-consumer.ts';
import { startBenchAllInOne } from '../harness/bench-all-in-one.ts';
import type { BenchRow } from '../harness/bench-row.ts';
import { fivemBatch } from '../harness/fivem-logs.ts';
import type { PostBatches } from '../harness/log-poster.ts';
import { PinnedChild } from '../harness/pinned/pinned-child.ts';
import { describeSpread, spread } from '../harness/pinned/stats.ts';

const ROUNDS = Number(process.env['BENCH_ALERTS_ROUNDS'] ?? 7);
const BATCHES = Number(process.env['BENCH_ALERTS_BATCHES'] ?? 200);
const REQUESTS = Number(process.env['BENCH_ALERTS_REQUESTS'] ?? 1000);
const EVAL_BATCHES = Number(process.env['BENCH_ALERTS_EVAL_BATCHES'] ?? 2000);
/** The parts to run (a comma list of ingest, evaluator, consumer, stream); default all, and only all give the rows. */
const ONLY = new Set((process.env['BENCH_ALERTS_ONLY'] ?? 'ingest,evaluator,consumer,stream').split(',').map((part) => part.trim()));
/** A folder: a CPU profile of this process per measured run of the ingest and consumer parts (with-<round> and without-<round>). */
const CPU_PROF = process.env['BENCH_ALERTS_CPU_PROF'];
const CONNECTIONS = 8;
const LOGS_PER_BATCH = 100;
const PUBLISH_AT_ONCE = 20;
const RULES = 100;
const OWNER = 'bench-owner';
export const WITH_RULES = '0195f2c4-0000-7000-8000-00000000a1e7';
export const WITHOUT_RULES = '0195f2c4-0000-7000-8000-0000000000b0';
export const T0 = Date.UTC(2026, 10, 1);
/** The CPU a log with the rules may cost over the CPU without: the rate >= 95 % when the CPU bounds it. */
const CPU_TARGET = 1 / 0.95;

/** Rules matching some of the benchmark's logs: [kind, filter]. */
const MATCHING: readonly [AlertKind, AlertFilter][] = [
  ['absence', { type: 'Join' }],
  ['absence', { type: 'Chat', resource: 'skald' }],
  ['threshold', { level: 'error' }],
  ['threshold', { type: 'Death', level: 'warn' }],
  ['threshold', { resource: 'ox_inventory', level: 'error' }],
  ['threshold', { type: 'RemoveMoney', resource: 'qb-core' }],
  ['threshold', { type: 'AddMoney', search: 'reason: unknown' }],
  ['threshold', { search: 'was killed by' }],
  ['threshold', { type: 'Leave', search: 'Game crashed' }],
  ['threshold', { metadata: { webhook: 'playermoney' } }],
  ['threshold', { metadata: { reason: 'Timed out after 60 seconds.' } }],
  ['threshold', { type: 'swapSlots' }],
  ['threshold', { search: 'weapon_pistol' }],
  ['threshold', { resource: 'skald', level: 'warn' }],
  ['threshold', { type: 'buyItem', search: 'lockpick' }],
];
const OTHER_TYPES = ['AntiCheat', 'txAdmin', 'Ban', 'Kick', 'Explosion', 'VehicleSpawn', 'Noclip', 'Teleport', 'AdminMenu', 'Screenshot', 'ResourceStop', 'ServerCrash', 'Heartbeat', 'Report', 'Jail'];
const OTHER_RESOURCES = ['es_extended', 'qb-banking', 'qb-phone', 'ox_lib', 'pma-voice', 'monitor', 'qb-policejob', 'qb-ambulancejob', 'lb-phone', 'qb-houses'];
const OTHER_SEARCHES = ['noclip', 'godmode', 'exploit', 'injection', 'SCRIPT ERROR', 'stack overflow', 'resource crashed', 'teleported to', 'spawned vehicle', 'was banned', 'money duplication', 'rate limited'];

/** A rule as POST /alerts takes it (without cooldownSeconds: its default, 0). */
type RuleBody = { readonly serverId: string } & Omit<AlertSettings, 'cooldownSeconds'>;

/** The 100 rules, each with a filter of its own: MATCHING, then 85 that match none of the benchmark's logs. */
export function ruleBodies(serverId: string): RuleBody[] {
  const other: [AlertKind, AlertFilter][] = [];
  for (const type of OTHER_TYPES) other.push(['threshold', { type }], ['threshold', { type, level: 'error' }], ['threshold', { type, search: 'player' }]);
  for (const resource of OTHER_RESOURCES) other.push(['threshold', { resource, level: 'error' }], ['threshold', { resource }]);
  for (const search of OTHER_SEARCHES) other.push(['threshold', { search }]);
  for (let i = 0; i < 6; i++) other.push(['threshold', { metadata: { citizenid: `WATCH${String(i).padStart(3, '0')}` } }]);
  other.push(['threshold', { level: 'fatal' }], ['absence', { type: 'Heartbeat', resource: 'monitor' }], ['absence', { type: 'txAdmin', search: 'restarted' }]);
  const rules = [...MATCHING, ...other].slice(0, RULES);
  if (rules.length !== RULES) throw new Error(`expected ${RULES} rules, made ${rules.length}`);
  return rules.map(([kind, filter], i) => ({
    serverId,
    name: `Rule ${i}`,
    kind,
    filter,
    webhookIds: [],
    enabled: true,
    // Absence windows longer than the run, thresholds out of reach: nothing fires, nothing is delivered.
    ...(kind === 'absence' ? { threshold: null, windowSeconds: 86_400 } : { threshold: 1_000_000, windowSeconds: 300 }),
  }));
}

/** Batch `index` of the benchmark: 100 realistic FiveM logs as ingestion accepts them (ids unique per index). */
export function benchBatch(serverId: string, index: number): LogsBatchAccepted {
  const logs: AcceptedLog[] = fivemBatch(serverId, index * LOGS_PER_BATCH, LOGS_PER_BATCH, 1_000_000_000, T0, 0).map((log) => ({
    id: log.id,
    createdAt: log.createdAt,
    level: log.level as AcceptedLog['level'],
    type: log.type,
    resource: log.resource,
    message: log.message,
    metadata: log.metadata,
    logType: 'text',
    imageKey: null,
    thumbKey: null,
  }));
  return { serverId, logs };
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
      // Made before the clock starts: the logs' generation is not the consumers' work.
      const groups = Array.from({ length: Math.ceil(BATCHES / PUBLISH_AT_ONCE) }, (_, g) =>
        Array.from({ length: Math.min(PUBLISH_AT_ONCE, BATCHES - g * PUBLISH_AT_ONCE) }, () => {
          index += 1;
          return eventMessage(LogsBatchAcceptedEvent, serverId, benchBatch(serverId, index));
        }),
      );
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (const messages of groups) await deps.bus.publish(messages);
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
  // 100 realistic FiveM logs (the same every request: the rules match the same share of each).
  const body = JSON.stringify(benchBatch(withRules.id, 0).logs.map((log) => ({ message: log.message, level: log.level, type: log.type, resource: log.resource, metadata: log.metadata })));
  // Ingestion learns each key from the bus: wait until both are accepted.
  for (const server of servers) {
    await waitFor(async () => (await app.inject({ method: 'POST', url: '/api/logs', headers: { 'x-api-key': server.apiKey }, payload: [{ message: 'probe' }] })).statusCode === 201, 'the API key in ingestion', 20_000);
  }
  const poster = PinnedChild.start('log poster', '../log-poster.ts', null);
  return {
    withRules: withRules.id,
    without: without.id,
    /** Posts REQUESTS requests of 100 logs for the server (8 at a time, from the poster process), until the alerts group consumed them. */
    async run(serverId: string): Promise<Run> {
      const apiKey = servers.find((s) => s.id === serverId)!.apiKey;
      await alertsDrained(webhooksBus);
      const load: PostBatches = { url: `${address}/api/logs`, headers: { 'x-api-key': apiKey }, body, requests: REQUESTS, connections: CONNECTIONS };
      const cpu = process.cpuUsage();
      const mainCpu = process.threadCpuUsage();
      const started = performance.now();
      const { created } = await poster.call<{ created: number }>('post', load);
      await alertsDrained(webhooksBus);
      const seconds = (performance.now() - started) / 1000;
      const used = cpuMicros(cpu);
      const main = process.threadCpuUsage(mainCpu);
      const accepted = created * LOGS_PER_BATCH;
      if (accepted < REQUESTS * LOGS_PER_BATCH) throw new Error(`only ${accepted} of ${REQUESTS * LOGS_PER_BATCH} logs accepted`);
      return { rate: accepted / seconds, cpuPerLog: used / accepted, mainCpuPerLog: (main.user + main.system) / accepted };
    },
    async firing(): Promise<number> {
      return (await app.inject({ method: 'GET', url: `/api/alerts?serverId=${withRules.id}`, headers: auth })).json<AlertList>().alerts.filter((a) => a.state !== 'ok').length;
    },
    async close() {
      await poster.close();
      await bench.close();
    },
  };
}

/** One run: logs per second, and the process's CPU time (user and system, all threads) per log in µs. */
interface Run {
  readonly rate: number;
  readonly cpuPerLog: number;
  /** The main thread's part of it (the rest: V8's helper threads, SQLite's checkpoint worker, libuv's pool); ingest only. */
  readonly mainCpuPerLog?: number;
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

interface Rounds {
  readonly rated: number[];
  readonly base: number[];
  readonly ratedCpu: number[];
  readonly baseCpu: number[];
  readonly ratedMainCpu: number[];
  readonly baseMainCpu: number[];
  /** Per round, CPU a log with the rules over CPU a log without, of the two runs of that round. */
  readonly cpuRatios: number[];
}

/**
 * Runs `work`, with a V8 CPU profile of this process written to BENCH_ALERTS_CPU_PROF/<name>.cpuprofile when
 * that folder is set (the figures of a profiled run carry the profiler's cost: for reading the profiles only).
 */
async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (CPU_PROF === undefined) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    await writeFile(join(CPU_PROF, `${name}.cpuprofile`), JSON.stringify(profile));
  }
}

/** One warm-up of each, then ROUNDS rounds of one run with the rules and one without, the order flipped every round. */
async function measure(bench: Bench, withRules: string, without: string, prefix: string): Promise<Rounds> {
  const rounds: Rounds = { rated: [], base: [], ratedCpu: [], baseCpu: [], ratedMainCpu: [], baseMainCpu: [], cpuRatios: [] };
  try {
    await bench.run(withRules);
    await bench.run(without);
    for (let round = 0; round < ROUNDS; round++) {
      // The order flips every round, so a change of machine load falls on both alike.
      const order = round % 2 === 0 ? [withRules, without] : [without, withRules];
      const runs = new Map<string, Run>();
      for (const serverId of order) runs.set(serverId, await profiled(`${prefix}${serverId === withRules ? 'with' : 'without'}-${round}`, () => bench.run(serverId)));
      const rated = runs.get(withRules)!;
      const base = runs.get(without)!;
      rounds.rated.push(rated.rate);
      rounds.base.push(base.rate);
      rounds.ratedCpu.push(rated.cpuPerLog);
      rounds.baseCpu.push(base.cpuPerLog);
      if (rated.mainCpuPerLog !== undefined && base.mainCpuPerLog !== undefined) {
        rounds.ratedMainCpu.push(rated.mainCpuPerLog);
        rounds.baseMainCpu.push(base.mainCpuPerLog);
      }
      // Adjacent runs share the machine's load of the moment: their ratio cancels most of it.
      rounds.cpuRatios.push(rated.cpuPerLog / base.cpuPerLog);
    }
    const firing = await bench.firing();
    if (firing !== 0) throw new Error(`${firing} rules fired during the benchmark: thresholds meant to be out of reach`);
    return rounds;
  } finally {
    await bench.close();
  }
}

/** The 100 rules on the rated server (made at T0) and an evaluator over them that delivers nowhere, on `now`'s clock. */
export async function benchEvaluator(
  deps: { docs: Parameters<typeof createAlertStore>[0] },
  now: () => number,
  create: typeof createAlertEvaluator = createAlertEvaluator,
): Promise<AlertEvaluator> {
  const store = await createAlertStore(deps.docs);
  for (const { serverId, ...settings } of ruleBodies(WITH_RULES)) await store.create(serverId, { ...settings, cooldownSeconds: 0 }, T0);
  return create({
    alerts: store,
    webhooks: { byId: async () => null },
    directory: { server: async (id) => ({ id, name: 'bench', ownerId: OWNER, tier: 'legend', suspended: false }) },
    jobs: {} as JobQueue,
    publicUrl: 'https://skald.test',
    log: pino({ level: 'silent' }),
    now,
  });
}

/**
 * The evaluator alone: onBatches called in a loop on the benchmark's logs, for the server with the 100 rules
 * and for one without (alternating rounds), this thread's CPU per batch of 100 logs in µs (medians).
 */
async function measureEvaluator(): Promise<{ withRules: number[]; without: number[] }> {
  const deps = await createTestDeps({ service: 'webhooks' });
  try {
    let now = T0;
    const evaluator = await benchEvaluator(deps, () => now);
    // 50 kinds of realistic batches, as JSON text; each batch a new first log id (a batch's key), as the bus hands them out.
    const kinds = Array.from({ length: 50 }, (_, i) => JSON.stringify(benchBatch(WITH_RULES, i).logs));
    let index = 0;
    const result = { withRules: [] as number[], without: [] as number[] };
    // Each batch parsed in the loop, alike for both servers, and dropped after its call. Parsed: the logs the
    // evaluator reads are new ones, as in the ingest path (the same 50 objects again and again would stay in the
    // processor's caches with their strings' hashes worked out: measured, that hid a third of the cost). Dropped:
    // made beforehand, the batches of a round would stay alive, and every young-generation collection the
    // evaluator's own allocations set off would copy them (a cost the ingest path does not have). The figure of
    // the evaluator is the difference of the two.
    const round = async (serverId: string) => {
      const cpu = process.threadCpuUsage();
      for (let i = 0; i < EVAL_BATCHES; i++) {
        index += 1;
        const logs = JSON.parse(kinds[index % kinds.length]!) as AcceptedLog[];
        now += 5;
        logs[0] = { ...logs[0]!, id: `bench-${index}` };
        await evaluator.onBatches([{ serverId, logs }]);
      }
      const used = process.threadCpuUsage(cpu);
      return (used.user + used.system) / EVAL_BATCHES;
    };
    await round(WITH_RULES);
    await round(WITHOUT_RULES);
    for (let r = 0; r < ROUNDS * 2; r++) {
      for (const serverId of r % 2 === 0 ? [WITH_RULES, WITHOUT_RULES] : [WITHOUT_RULES, WITH_RULES]) {
        (serverId === WITH_RULES ? result.withRules : result.without).push(await round(serverId));
      }
    }
    await evaluator.flush();
    return result;
  } finally {
    await deps.cleanup();
  }
}

/**
 * The alerts consumer alone: the evaluator of measureEvaluator behind startAlertConsumer on the embedded bus
 * (the all-in-one's adapter), batches published as ingestion publishes them, waited for until the alerts
 * group's lag is 0. The process's CPU per batch of 100 logs in µs, for the server with the rules and one
 * without (alternating rounds); the publishing is in it, alike for both.
 */
async function measureConsumer(): Promise<{ withRules: number[]; without: number[] }> {
  const deps = await createTestDeps({ service: 'webhooks' });
  let index = 0;
  try {
    // The logs' clock, as in measureEvaluator: 5 ms a batch, so the windows hold what they hold there.
    const evaluator = await benchEvaluator(deps, () => T0 + index * 5);
    const subscription = await startAlertConsumer(deps.bus, evaluator);
    const round = async (serverId: string) => {
      await alertsDrained(deps.bus);
      // Made before the clock starts: the logs' generation is not the consumer's work.
      const groups = Array.from({ length: Math.ceil(BATCHES / PUBLISH_AT_ONCE) }, (_, g) =>
        Array.from({ length: Math.min(PUBLISH_AT_ONCE, BATCHES - g * PUBLISH_AT_ONCE) }, () => {
          index += 1;
          return eventMessage(LogsBatchAcceptedEvent, serverId, benchBatch(serverId, index));
        }),
      );
      const cpu = process.cpuUsage();
      for (const messages of groups) await deps.bus.publish(messages);
      await alertsDrained(deps.bus);
      return cpuMicros(cpu) / BATCHES;
    };
    const result = { withRules: [] as number[], without: [] as number[] };
    try {
      await round(WITH_RULES);
      await round(WITHOUT_RULES);
      for (let r = 0; r < ROUNDS; r++) {
        for (const serverId of r % 2 === 0 ? [WITH_RULES, WITHOUT_RULES] : [WITHOUT_RULES, WITH_RULES]) {
          (serverId === WITH_RULES ? result.withRules : result.without).push(await profiled(`consumer-${serverId === WITH_RULES ? 'with' : 'without'}-${r}`, () => round(serverId)));
        }
      }
    } finally {
      await subscription.stop();
      await evaluator.flush();
    }
    return result;
  } finally {
    await deps.cleanup();
  }
}

export async function run(): Promise<BenchRow[]> {
  const loadBefore = loadavg()[0]!;
  if (!['ingest', 'evaluator', 'consumer', 'stream'].every((part) => ONLY.has(part))) return partialRun(loadBefore);
  const ingest = await setUpIngest();
  const viaHttp = await measure(ingest, ingest.withRules, ingest.without, '');
  const evaluatorCpu = await measureEvaluator();
  const consumerCpu = await measureConsumer();
  const stream = await measure(await setUpStream(), WITH_RULES, WITHOUT_RULES, 'stream-');
  const load = `load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after`;
  const rate = (n: number) => `${Math.round(n).toLocaleString('en-US')} logs/s`;
  const micros = (n: number) => `${n.toFixed(2)} µs`;
  const percent = (ratio: number) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)} %`;
  const rules = '15 rules match some logs (13 threshold, 2 absence), 85 none, each its own filter; realistic FiveM logs';
  const httpRated = spread(viaHttp.rated);
  const httpBase = spread(viaHttp.base);
  const httpCpu = spread(viaHttp.ratedCpu);
  const httpCpuBase = spread(viaHttp.baseCpu);
  const cpuRatio = spread(viaHttp.cpuRatios);
  const evalWith = spread(evaluatorCpu.withRules);
  const evalWithout = spread(evaluatorCpu.without);
  const ingestPerBatch = httpCpuBase.median * LOGS_PER_BATCH;
  const consumerWith = spread(consumerCpu.withRules);
  const consumerWithout = spread(consumerCpu.without);
  const streamRated = spread(stream.rated);
  const streamBase = spread(stream.base);
  const httpContext = `${ROUNDS} rounds (${REQUESTS} requests of ${LOGS_PER_BATCH} logs, ${CONNECTIONS} connections from a process of its own), alternating; ${load}`;
  return [
    {
      name: 'ingest CPU a log with 100 alert rules over without (server process: ingestion, bus, consumers; median of adjacent pairs)',
      value: Math.round((cpuRatio.median - 1) * 1000) / 10,
      unit: '% more',
      target: `<= ${percent(CPU_TARGET)} (rate >= 95 % when CPU-bound)`,
      pass: cpuRatio.median <= CPU_TARGET,
      baseline: `with ${micros(httpCpu.median)} (${describeSpread(httpCpu, micros)}), without ${micros(httpCpuBase.median)} (${describeSpread(httpCpuBase, micros)})`,
      note: `pairs ${describeSpread(cpuRatio, percent)}; ${rules}; ${httpContext}`,
    },
    {
      name: 'ingest rate with 100 alert rules, share of the rate without (wall clock: swings with the machine\'s load)',
      value: Math.round((httpRated.median / httpBase.median) * 1000) / 10,
      unit: '%',
      baseline: `with ${rate(httpRated.median)} (${describeSpread(httpRated, rate)}), without ${rate(httpBase.median)} (${describeSpread(httpBase, rate)})`,
      note: `the verdict is the CPU a log (row above); ${httpContext}`,
    },
    {
      name: 'alert evaluator alone: CPU the 100 rules add to a batch of 100 logs, share of the ingest CPU of a batch (without rules)',
      value: Math.round(((evalWith.median - evalWithout.median) / ingestPerBatch) * 1000) / 10,
      unit: '%',
      baseline: `${micros(evalWith.median - evalWithout.median)} a batch: with rules ${micros(evalWith.median)} (${describeSpread(evalWith, micros)}), a server without ${micros(evalWithout.median)} (${describeSpread(evalWithout, micros)}), each with parsing the batch; ingest ${micros(ingestPerBatch)} a batch without rules`,
      note: `onBatches called directly, ${EVAL_BATCHES} batches a round, ${ROUNDS * 2} rounds of each alternating, this thread's CPU; ${load}`,
    },
    {
      name: 'alerts consumer alone (embedded bus, no HTTP): CPU the 100 rules add to a batch of 100 logs, share of the ingest CPU of a batch (without rules)',
      value: Math.round(((consumerWith.median - consumerWithout.median) / ingestPerBatch) * 1000) / 10,
      unit: '%',
      baseline: `${micros(consumerWith.median - consumerWithout.median)} a batch: with rules ${micros(consumerWith.median)} (${describeSpread(consumerWith, micros)}), a server without ${micros(consumerWithout.median)} (${describeSpread(consumerWithout, micros)}), each with publishing, reading, decoding and committing the batch; ingest ${micros(ingestPerBatch)} a batch without rules; evaluator alone ${micros(evalWith.median - evalWithout.median)}`,
      note: `${BATCHES} batches a round published ${PUBLISH_AT_ONCE} at a time, ${ROUNDS} rounds of each alternating, the process's CPU; ${load}`,
    },
    {
      name: 'accepted-logs stream alone, 100 alert rules (webhooks consumers only)',
      value: Math.round(streamRated.median),
      unit: 'logs/s',
      baseline: `no rules: ${rate(streamBase.median)} (${describeSpread(streamBase, rate)})`,
      note: `${describeSpread(streamRated, rate)}: ${Math.round((streamRated.median / streamBase.median) * 100)} % of a consumer with nothing to evaluate; CPU a log ${percent(spread(stream.cpuRatios).median)} (median of pairs); ${ROUNDS} rounds (${BATCHES} batches of ${LOGS_PER_BATCH} logs published on the bus); ${load}`,
    },
  ];
}

/**
 * The parts BENCH_ALERTS_ONLY names, while looking into one of them: per part the medians with rules and
 * without (µs of CPU a log for ingest and stream, a batch for the evaluator and the consumer) and the median
 * of the pairs' ratios; no target.
 */
async function partialRun(loadBefore: number): Promise<BenchRow[]> {
  type Pairs = { withRules: number[]; without: number[] };
  let ingestMain: Pairs | null = null;
  const parts: [string, () => Promise<Pairs>][] = [
    ['ingest', async () => {
      const ingest = await setUpIngest();
      const rounds = await measure(ingest, ingest.withRules, ingest.without, '');
      ingestMain = { withRules: rounds.ratedMainCpu, without: rounds.baseMainCpu };
      return { withRules: rounds.ratedCpu, without: rounds.baseCpu };
    }],
    ['evaluator', measureEvaluator],
    ['consumer', measureConsumer],
    ['stream', async () => {
      const rounds = await measure(await setUpStream(), WITH_RULES, WITHOUT_RULES, 'stream-');
      return { withRules: rounds.ratedCpu, without: rounds.baseCpu };
    }],
  ];
  const rows: BenchRow[] = [];
  const measured: [string, () => Promise<Pairs>][] = [];
  for (const [part, measurePart] of parts) {
    if (!ONLY.has(part)) continue;
    measured.push([part, measurePart]);
    // The main thread's share of the ingest CPU, right after it: what V8's helper threads and the workers add.
    if (part === 'ingest') measured.push(['ingest main thread', async () => ingestMain!]);
  }
  for (const [part, measurePart] of measured) {
    const { withRules, without } = await measurePart();
    const ratios = spread(withRules.map((w, i) => w / without[i]!));
    rows.push({
      name: `${part} alone: CPU with 100 rules over without (median of pairs)`,
      value: Math.round((ratios.median - 1) * 1000) / 10,
      unit: '% more',
      baseline: `with ${spread(withRules).median.toFixed(2)} µs, without ${spread(without).median.toFixed(2)} µs`,
      note: `${ROUNDS} rounds; load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after`,
    });
  }
  return rows;
}

export default run;

if (import.meta.main) {
  const rows = await run();
  console.table(rows.map((r) => ({ metric: r.name, value: r.value, unit: r.unit, target: r.target ?? '', baseline: r.baseline ?? '', note: r.note ?? '' })));
}
