/**
 * The player view at scale (docs/PLAYERS.md): PLAYERS_BENCH_ROWS (default 5,000,000) logs of ONE server
 * naming PLAYERS_BENCH_PLAYERS (default 50,000) players, stored through the logs service's own store path
 * (storeAcceptedBatches: the log store insert, identity extraction, the player store), then through the
 * routes with a real access token (the logs service as the test kit builds it), each p95 over
 * PLAYERS_BENCH_RUNS (default 200) requests of different players:
 *   - player search (names contained, identifiers exact, values without the kind), player page
 *     (GET /players/{id}), first timeline page (GET /players/{id}/logs, 50 logs): bar p95 < 50 ms,
 *   - beside a plain log page (GET /logs/my, 50 logs) and the first player list page, in the same run;
 *   - ingest: logs stored per second with identity (the store path queues, the recorder records in
 *     background runs, on its worker thread with this embedded store; a round ends once its players are
 *     recorded too) and without it, alternating on the full stores over PLAYERS_BENCH_INGEST_ROUNDS (default 8)
 *     rounds of 20,000 logs made before the clock starts, two ways: the logs consumer draining the round's
 *     events from the bus, and the store path alone (storeAcceptedBatches in a loop); bar: the median ratio
 *     >= 90%. Beside it, CPU per log of the whole process and of the thread storing logs (process.cpuUsage,
 *     process.threadCpuUsage: less moved by other work on a shared machine than wall time), and CPU by thread;
 *   - disk: the player store's bytes per log and per (player, log) mention, beside the log store's.
 * The logs: a window of ~500 online players slides over the 50,000 (each player a few sessions over 30
 * days); 60% name one player as the FiveM resource writes it ({ player: { name, serverId, identifiers } }),
 * 15% a victim and a killer, 5% a player in the message text, 20% nobody; 1 in 1,000 is a photo log; one
 * player in 100 has an alt license first seen alone, then beside the main account (a merge).
 * Run: `npm run bench -- players`, `PLAYERS_BENCH_ROWS=500000 npm run bench -- players` for a quick one.
 */
import { statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import type { AcceptedLog } from '@skald/contracts';
import { LogsBatchAcceptedEvent, eventMessage } from '@skald/contracts';
import { buildTestService, createTestDeps, waitFor } from '@skald/testing';
import type { TestService } from '@skald/testing';
import { createLogsService } from '@skald/logs-service';
import type { ServerDirectory } from '../../../services/logs/src/domain/server-directory.ts';
import { createPlayerRecorder } from '../../../services/logs/src/domain/players/player-recorder.ts';
import { storeAcceptedBatches } from '../../../services/logs/src/domain/store-batch.ts';
import { startBatchConsumer } from '../../../services/logs/src/events/batch-consumer.ts';
import type { StoreBatchDeps } from '../../../services/logs/src/domain/store-batch.ts';
import type { BenchRow } from '../harness/bench-row.ts';
import { eventSource } from '../harness/accepted-event.ts';
import { cpuByThreadName } from '../harness/thread-cpu.ts';
import { describeSpread, pct, spread } from '../harness/pinned/stats.ts';

const ROWS = Number(process.env['PLAYERS_BENCH_ROWS'] ?? process.env['BENCH_ROWS'] ?? 5_000_000);
const PLAYERS = Number(process.env['PLAYERS_BENCH_PLAYERS'] ?? 50_000);
const RUNS = Number(process.env['PLAYERS_BENCH_RUNS'] ?? 200);
const INGEST_ROUNDS = Number(process.env['PLAYERS_BENCH_INGEST_ROUNDS'] ?? 8);
const INGEST_ROWS = 20_000;
const EVENT_LOGS = 1000;
export const SERVER = '0195f2c4-0000-7000-8000-0000000b3e4c';
const USER = 'bench-owner';
const ONLINE = 500;
const SPAN_MS = 30 * 86_400_000;
const START = Date.now() - SPAN_MS;

const FIRST = ['Alice', 'Bob', 'Carlos', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kofi', 'Lena', 'Marco', 'Nadia', 'Oskar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tariq', 'Uma', 'Viktor', 'Wen', 'Ximena', 'Yusuf', 'Zoe'];
const LAST = ['Stone', 'Rivers', 'Kowalski', 'Nakamura', 'Okafor', 'Lindqvist', 'Moreau', 'Santos', 'Petrov', 'Haddad', 'Byrne', 'Keller', 'Duarte', 'Fischer', 'Ivanova', 'Castillo', 'Jensen', 'Mbeki', 'Novak', 'Quispe'];
const ACTIONS = ['bought a pistol', 'sold a car', 'entered the bank', 'was arrested', 'paid a fine', 'robbed a store', 'joined a gang', 'opened a trunk'];

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0').slice(-width);
const nameOf = (p: number): string => `${FIRST[p % FIRST.length]} ${LAST[Math.floor(p / FIRST.length) % LAST.length]} ${p}`;
const licenseOf = (p: number): string => `license:${hex(p * 2654435761, 8)}${hex(p, 32)}`;
const altLicenseOf = (p: number): string => `license:a17${hex(p * 40503, 5)}${hex(p, 32)}`;
const discordOf = (p: number): string => `discord:${String(300_000_000_000_000_000 + p * 7919)}`;

function identifiersOf(p: number): string[] {
  const ids = [licenseOf(p), `license2:${hex(p * 97, 8)}${hex(p, 32)}`, discordOf(p), `fivem:${1_000_000 + p}`, `ip:10.${(p >> 16) & 255}.${(p >> 8) & 255}.${p % 5000 & 255}`];
  if (p % 5 < 3) ids.push(`steam:110000${hex(p, 9)}`);
  return ids;
}

/** The player of log `i`: one of the ~ONLINE players of the window the log's time falls in. */
function playerAt(i: number, salt: number): number {
  const slide = Math.floor(i / Math.max(1, ROWS / (PLAYERS * 3)));
  const hash = Math.imul(i ^ (salt * 0x9e3779b9), 0x85ebca6b) >>> 0;
  return (slide + (hash % ONLINE)) % PLAYERS;
}

function playerObject(p: number, i: number): Record<string, unknown> {
  // A player with an alt account: seen on it alone at first, then with both (the alt joins the main).
  if (p % 100 === 0 && i % 2 === 0) return { name: nameOf(p), serverId: (p % 128) + 1, identifiers: i % 4 === 0 ? [altLicenseOf(p)] : [...identifiersOf(p), altLicenseOf(p)] };
  return { name: nameOf(p), serverId: (p % 128) + 1, identifiers: identifiersOf(p) };
}

/** Log `i` of the benchmark (also used by profiling scripts). */
export function logAt(i: number): AcceptedLog {
  const createdAt = START + Math.floor((i / ROWS) * SPAN_MS);
  const kind = i % 20;
  const p = playerAt(i, 1);
  let message: string;
  let metadata: Record<string, unknown> | null;
  let type = 'General';
  if (kind < 12) {
    message = `${nameOf(p)} ${ACTIONS[i % ACTIONS.length]}`;
    metadata = { player: playerObject(p, i), amount: i % 5000 };
    type = 'Economy';
  } else if (kind < 15) {
    const killer = playerAt(i, 2);
    message = `${nameOf(p)} was killed by ${nameOf(killer)}`;
    metadata = { victim: playerObject(p, i), killer: playerObject(killer, i), weapon: 'WEAPON_PISTOL', distance: i % 80 };
    type = 'Death';
  } else if (kind < 16) {
    message = `${nameOf(p)} (${licenseOf(p)}) ${ACTIONS[i % ACTIONS.length]}`;
    metadata = { playerName: nameOf(p) };
  } else {
    message = `Server tick ${i}: ${i % 64} vehicles, ${ONLINE} players`;
    metadata = kind % 2 === 0 ? { tick: i } : null;
  }
  const photo = i % 1000 === 999;
  return {
    id: `0195f2c4-${hex(Math.floor(i / 0x1000000), 4)}-7${hex(Math.floor(i / 0x10000) & 0xff, 3)}-8${hex(i & 0xfff, 3)}-${hex(i, 12)}`,
    createdAt,
    level: kind === 13 ? 'warn' : 'info',
    type,
    resource: 'skald',
    message,
    metadata,
    logType: photo ? 'photo' : 'text',
    imageKey: photo ? `photos/${SERVER}/${i}.webp` : null,
    thumbKey: photo ? `thumbs/${SERVER}/${i}.webp` : null,
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The file's bytes once its WAL is folded back in (a second connection checkpoints it). */
function fileBytes(path: string): number {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  let total = 0;
  for (const suffix of ['', '-wal']) {
    try {
      total += statSync(path + suffix).size;
    } catch {
      // No WAL file: nothing written since the last checkpoint.
    }
  }
  return total;
}

export default async function playersBenchmark(): Promise<BenchRow[]> {
  const deps = await createTestDeps({ service: 'logs' });
  let service: TestService | undefined;
  try {
    const directory = { server: async () => ({ tier: 'legend' }) } as unknown as ServerDirectory;
    const base = { logStore: deps.logStore, objects: deps.objects, directory, log: pino({ level: 'silent' }), notifyStored: async () => undefined };
    // As the service runs it: the store path queues, the recorder records in background runs.
    const recorder = createPlayerRecorder({ store: deps.playerStore!, log: base.log });
    recorder.start();
    const withIdentity: StoreBatchDeps = { ...base, players: recorder };
    // Every log once, in order: the fill, then the rounds.
    const eventsOf = eventSource(logAt, SERVER, EVENT_LOGS);
    let stored = 0;
    /** Stores the next `count` logs in events of EVENT_LOGS, each made when its turn comes, as the consumer does (one per read here). */
    const store = async (storeDeps: StoreBatchDeps, count: number): Promise<void> => {
      for (let left = count; left > 0; left -= EVENT_LOGS) {
        for (const event of eventsOf(Math.min(EVENT_LOGS, left))) {
          stored += event.logs.length;
          await storeAcceptedBatches(storeDeps, [{ event, batchId: `batch-${stored}` }]);
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      }
    };

    const fillRows = ROWS - INGEST_ROUNDS * 2 * INGEST_ROWS;
    const filled = performance.now();
    for (let done = 0; done < fillRows; ) {
      const part = Math.min(500_000, fillRows - done);
      await store(withIdentity, part);
      await recorder.catchUp();
      done += part;
      console.log(`stored ${done.toLocaleString('en-US')} logs (${Math.round(done / ((performance.now() - filled) / 1000)).toLocaleString('en-US')} logs/s so far)`);
    }
    const fillSeconds = (performance.now() - filled) / 1000;

    // Ingest with and without identity, alternating on the full stores (the order flips every round), by two
    // measures, each round's logs made before its clock starts:
    //   - the store path alone (storeAcceptedBatches called in a loop): the harshest ratio, nothing else costs;
    //   - the logs service's consumer draining the round's events from the bus (read, parse, validate, store),
    //     as the service ingests them.
    // A round with identity ends once its players are recorded too (what the recorder left is part of its cost).
    type Mode = 'on' | 'off';
    type Path = 'store' | 'consumer';
    const figures = {
      store: { ratios: [] as number[], rates: { on: [] as number[], off: [] as number[] }, cpus: { on: [] as number[], off: [] as number[] }, mainCpus: { on: [] as number[], off: [] as number[] } },
      consumer: { ratios: [] as number[], rates: { on: [] as number[], off: [] as number[] }, cpus: { on: [] as number[], off: [] as number[] }, mainCpus: { on: [] as number[], off: [] as number[] } },
    };
    let inserted = 0;
    /** The consumer's round is over once this many logs were inserted (resolved by the insert that reaches it). */
    let awaited: { readonly count: number; readonly done: () => void } | null = null;
    const counting = new Proxy(deps.logStore, {
      get(target, property) {
        if (property === 'insertBatch') {
          return async (...args: Parameters<typeof target.insertBatch>) => {
            const result = await target.insertBatch(...args);
            inserted += args[0].length;
            if (awaited !== null && inserted >= awaited.count) awaited.done();
            return result;
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const run = async (path: Path, mode: Mode): Promise<void> => {
      const storeDeps = mode === 'on' ? withIdentity : base;
      const events = eventsOf(INGEST_ROWS);
      if (path === 'consumer') await deps.bus.publish(events.map((event) => eventMessage(LogsBatchAcceptedEvent, SERVER, event)));
      const started = performance.now();
      const cpu = process.cpuUsage();
      const mainCpu = process.threadCpuUsage();
      if (path === 'store') {
        for (const event of events) {
          await storeAcceptedBatches(storeDeps, [{ event, batchId: `batch-${event.logs[0]!.id}` }]);
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      } else {
        const stored = new Promise<void>((resolve) => (awaited = { count: inserted + INGEST_ROWS, done: resolve }));
        const consumer = await startBatchConsumer(deps.bus, { ...storeDeps, logStore: counting, counts: { mark: async () => undefined } });
        await stored;
        awaited = null;
        await consumer.stop();
      }
      if (mode === 'on') await recorder.catchUp();
      const rate = INGEST_ROWS / ((performance.now() - started) / 1000);
      const used = process.cpuUsage(cpu);
      const usedMain = process.threadCpuUsage(mainCpu);
      const figure = figures[path];
      figure.rates[mode].push(rate);
      figure.cpus[mode].push((used.user + used.system) / INGEST_ROWS);
      figure.mainCpus[mode].push((usedMain.user + usedMain.system) / INGEST_ROWS);
    };
    const ticksBefore = cpuByThreadName();
    for (let round = 0; round < INGEST_ROUNDS; round++) {
      const order: readonly Mode[] = round % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
      for (const path of ['store', 'consumer'] as const) {
        for (const mode of order) await run(path, mode);
        const figure = figures[path];
        const on = figure.rates.on.at(-1)!;
        const off = figure.rates.off.at(-1)!;
        figure.ratios.push(on / off);
        console.log(`ingest round ${round + 1}, ${path.padEnd(8)}: with identity ${Math.round(on).toLocaleString('en-US')} logs/s, without ${Math.round(off).toLocaleString('en-US')} logs/s (${pct(on / off)})`);
      }
    }
    const ticksAfter = cpuByThreadName();
    const byThread = [...ticksAfter].map(([name, after]) => [name, after - (ticksBefore.get(name) ?? 0)] as const).filter(([, t]) => t > 0).sort((a, b) => b[1] - a[1]);
    console.log(`CPU by thread over the ingest rounds (both paths, both modes): ${byThread.map(([name, t]) => `${name} ${(t / 1e6).toFixed(2)} s`).join(', ')}`);

    await recorder.stop();
    const logs = await buildTestService(createLogsService, { deps });
    service = logs;
    await logs.identity.server({ serverId: SERVER, ownerId: USER, tier: 'legend' });
    const authorization = `Bearer ${logs.tokenFor({ id: USER })}`;
    const get = (url: string) => logs.inject({ method: 'GET', url, headers: { authorization } });
    await waitFor(async () => (await get(`/settings/levels?serverId=${SERVER}`)).statusCode === 200, 'the bench server in the logs read model');

    // Players to ask for: spread over the whole set (most of them offline for days, some just seen).
    const sample = Array.from({ length: RUNS }, (_, k) => (k * 7_919 + 13) % PLAYERS);
    const ids: string[] = [];
    for (const p of sample) {
      const found = await deps.playerStore!.byIdentifier(SERVER, licenseOf(p));
      if (found !== null) ids.push(found.id);
    }
    if (ids.length < RUNS / 2) throw new Error(`only ${ids.length} of ${RUNS} sampled players were found`);

    const rows: BenchRow[] = [];
    const note = `${ROWS.toLocaleString('en-US')} logs, ${PLAYERS.toLocaleString('en-US')} players, one server, through the route (access token, role check, JSON); load ${loadavg()[0]!.toFixed(1)}`;
    const measure = async (label: string, urls: readonly string[], bar?: number): Promise<number> => {
      const times: number[] = [];
      for (let k = 0; k < urls.length + 5; k++) {
        const url = urls[k % urls.length]!;
        const t = performance.now();
        const res = await get(url);
        const elapsed = performance.now() - t;
        if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        if (k >= 5) times.push(elapsed);
      }
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      console.log(`${label.padEnd(48)} p50 ${percentile(times, 50).toFixed(2).padStart(7)} ms   p95 ${p95.toFixed(2).padStart(7)} ms`);
      rows.push({ name: `${label} p95`, value: Number(p95.toFixed(2)), unit: 'ms', ...(bar === undefined ? {} : { target: `< ${bar} ms`, pass: p95 < bar }), note });
      return p95;
    };
    const repeat = (make: (k: number) => string): string[] => Array.from({ length: RUNS }, (_, k) => make(k));

    const plain = await measure('plain log page (GET /logs/my, 50)', repeat((k) => `/logs/my?serverId=${SERVER}&page=${(k % 4) + 1}&pageSize=50`));
    await measure('player list, newest first (25)', repeat((k) => `/players?serverId=${SERVER}&page=${(k % 4) + 1}`));
    const byName = await measure('player search: name contains', repeat((k) => `/players?serverId=${SERVER}&search=${encodeURIComponent(nameOf(sample[k]!).split(' ').slice(1).join(' ').slice(1).toUpperCase())}`), 50);
    const byIdentifierExact = await measure('player search: identifier exact', repeat((k) => `/players?serverId=${SERVER}&search=${encodeURIComponent(discordOf(sample[k]!))}`), 50);
    const byValue = await measure('player search: value without the kind', repeat((k) => `/players?serverId=${SERVER}&search=${licenseOf(sample[k]!).slice('license:'.length)}`), 50);
    const page = await measure('player page (GET /players/{id})', repeat((k) => `/players/${ids[k % ids.length]}?serverId=${SERVER}`), 50);
    const timeline = await measure('first timeline page (50 logs)', repeat((k) => `/players/${ids[k % ids.length]}/logs?serverId=${SERVER}&limit=50`), 50);

    const playerBytes = fileBytes(join(deps.root, 'logs', 'players.db'));
    const logBytes = fileBytes(join(deps.root, 'logs', 'logs.db'));
    const perLog = playerBytes / ROWS;
    console.log(`fill: ${ROWS.toLocaleString('en-US')} logs in ${fillSeconds.toFixed(0)} s; disk: player store ${(playerBytes / 1024 / 1024).toFixed(0)} MiB (${perLog.toFixed(1)} B a log), log store ${(logBytes / 1024 / 1024).toFixed(0)} MiB (${(logBytes / ROWS).toFixed(1)} B a log)`);
    const us = (n: number): string => n.toFixed(1);
    const perSecond = (n: number): string => Math.round(n).toLocaleString('en-US');
    for (const path of ['consumer', 'store'] as const) {
      const figure = figures[path];
      const ratio = spread(figure.ratios);
      const [onRate, offRate] = [spread(figure.rates.on), spread(figure.rates.off)];
      const [onCpu, offCpu] = [spread(figure.cpus.on), spread(figure.cpus.off)];
      const [onMain, offMain] = [spread(figure.mainCpus.on), spread(figure.mainCpus.off)];
      const label = path === 'consumer' ? 'the logs consumer (bus read, parse, validate, store)' : 'the store path alone';
      console.log(`ingest with identity / without, ${label}: ${describeSpread(ratio, pct)}; with ${describeSpread(onRate, perSecond)} logs/s, without ${describeSpread(offRate, perSecond)} logs/s`);
      console.log(`  CPU per log, whole process: with ${describeSpread(onCpu, us)} us, without ${describeSpread(offCpu, us)} us (ratio ${pct(offCpu.median / onCpu.median)})`);
      console.log(`  CPU per log, the thread storing logs: with ${describeSpread(onMain, us)} us, without ${describeSpread(offMain, us)} us (ratio ${pct(offMain.median / onMain.median)})`);
      rows.push({
        name: `ingest with identity / without: ${label} (median of rounds)`,
        value: Math.round(ratio.median * 100),
        unit: '%',
        target: '>= 90%',
        pass: ratio.median >= 0.9,
        baseline: `without ${perSecond(offRate.median)} logs/s, with ${perSecond(onRate.median)} logs/s`,
        note: `${INGEST_ROUNDS} rounds of ${INGEST_ROWS.toLocaleString('en-US')} logs on the full stores, a round with identity ending once its players are recorded; load ${loadavg()[0]!.toFixed(1)}`,
      });
      rows.push({
        name: `the same by CPU per log of the thread storing logs: ${label}`,
        value: Math.round((offMain.median / onMain.median) * 100),
        unit: '%',
        target: '>= 90%',
        pass: offMain.median / onMain.median >= 0.9,
        baseline: `without ${us(offMain.median)} us a log, with ${us(onMain.median)} us a log; whole process with ${us(onCpu.median)} us (the recorder's thread included)`,
        note: "that thread's CPU time, little moved by other work on the machine; the recorder's worker thread records on the other core",
      });
    }
    console.log(`bars (p95 < 50 ms): search ${Math.max(byName, byIdentifierExact, byValue).toFixed(2)} ms, page ${page.toFixed(2)} ms, timeline ${timeline.toFixed(2)} ms; plain log page ${plain.toFixed(2)} ms`);
    rows.push({ name: 'player store on disk per log', value: Number(perLog.toFixed(1)), unit: 'B', baseline: `log store ${(logBytes / ROWS).toFixed(1)} B a log`, note });
    return rows;
  } finally {
    await service?.close();
    await deps.cleanup();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await playersBenchmark();
