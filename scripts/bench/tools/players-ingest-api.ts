/**
 * Ingest through the public API with identity and without (docs/PLAYERS.md, "Ingest through the API"): the
 * all-in-one in this process (every service, the embedded adapters, bench-all-in-one.ts), the players
 * benchmark's logs (logAt: 80% naming players) POSTed to /api/logs in requests of PLAYERS_API_BATCH logs
 * (default 100, as the FiveM resource sends them) over PLAYERS_API_CONNECTIONS connections (default 4) by a
 * client in a process of its own (players-api-poster.ts), each round's bodies built before its clock starts.
 * A round ends once the log store holds every log of the round and, with identity, the players' queue is
 * empty (every player recorded): the whole way, POST -> ingestion -> bus -> logs consumer -> store -> players.
 *
 * Modes (PLAYERS_API_MODES, default all four), each round running every mode once on the same stores, the
 * order turning every round:
 *   - off: the logs service's player store takes nothing to record (its `queue` does nothing);
 *   - on: as shipped (the store path queues keys, the recorder's thread records rows and counts);
 *   - proto: as shipped up to the recorder's runs, which record into the prototype store instead
 *     (players-prototype-store.ts: the players alone, no (player, log) rows, no counts), on the same thread,
 *     from the same queue read back from the log store (players-prototype-worker.ts);
 *   - inline: no queue: the store path itself extracts the players from the metadata it already holds parsed
 *     and records them into a prototype store of its own, on the thread storing logs.
 * PLAYERS_API_ROUNDS (default 8) rounds of PLAYERS_API_ROUND logs (default 50,000) after PLAYERS_API_FILL logs
 * (default 200,000) recorded by all three ways first. Per round and mode: the rate (wall), this process's CPU
 * a log (every thread: the client's is not in it) and CPU by thread. PLAYERS_API_PIN=1: this process on CPU 1
 * and the client on CPU 0 (taskset), so the server has one core for everything, the recorder's thread included.
 * Run: `node_modules/.bin/node scripts/bench/tools/players-ingest-api.ts` (from the repository's root).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { loadavg, tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { LogMentions, PlayerStore, PlayerStoreWorkerOptions, QueuedLog } from '@skald/ports';
import { SERVICE_NAMES } from '@skald/service-kit';
import { createLogsService } from '@skald/logs-service';
import { extractPlayers } from '../../../services/logs/src/domain/identity/extract-players.ts';
import { startBenchAllInOne } from '../harness/bench-all-in-one.ts';
import { PinnedChild, pinSelf, pinningPlan } from '../harness/pinned/pinned-child.ts';
import { describeSpread, pct, spread } from '../harness/pinned/stats.ts';
import { cpuByThreadName } from '../harness/thread-cpu.ts';
import type { Posted, PostBodies, PrepareBodies } from './players-api-poster.ts';
import { PrototypePlayers } from './players-prototype-store.ts';
import { RECORD_BOTH, RECORD_PROTOTYPE, RECORD_SHIPPED } from './players-prototype-worker.ts';
import type { PrototypeWorkerData } from './players-prototype-worker.ts';

const ROUND = Number(process.env['PLAYERS_API_ROUND'] ?? 50_000);
const ROUNDS = Number(process.env['PLAYERS_API_ROUNDS'] ?? 8);
const FILL = Number(process.env['PLAYERS_API_FILL'] ?? 200_000);
const BATCH = Number(process.env['PLAYERS_API_BATCH'] ?? 100);
const CONNECTIONS = Number(process.env['PLAYERS_API_CONNECTIONS'] ?? 4);
const PIN = process.env['PLAYERS_API_PIN'] === '1';
const MODES = (process.env['PLAYERS_API_MODES'] ?? 'off,on,proto,inline').split(',').map((m) => m.trim()) as Mode[];

type Mode = 'off' | 'on' | 'proto' | 'inline';
/** The fill records every way, so each knows the players before the rounds. */
type Recording = Mode | 'fill';

const dir = mkdtempSync(join(tmpdir(), 'skald-players-api-'));
const workerMode = new Int32Array(new SharedArrayBuffer(4));
const inline = new PrototypePlayers(join(dir, 'inline.db'));
const recording: { mode: Recording } = { mode: 'fill' };

/** The inline mode: the players of the logs the store path holds, recorded on its own thread. */
function recordInline(logs: readonly QueuedLog[]): void {
  const mentions: LogMentions[] = [];
  for (const log of logs) {
    const players = extractPlayers(log.message, log.metadata);
    if (players.length > 0) mentions.push({ logId: log.logId, serverId: log.serverId, at: log.at, logType: log.logType, expiresAt: log.expiresAt, players });
  }
  inline.record(mentions);
  inline.writeSeenTimesIfDue();
}

/** The player store as shipped, except for what each mode changes (above); its worker runs players-prototype-worker.ts. */
function switchable(store: PlayerStore): PlayerStore {
  const queue = async (logs: readonly QueuedLog[]): Promise<void> => {
    const mode = recording.mode;
    if (mode === 'inline' || mode === 'fill') recordInline(logs);
    if (mode !== 'off' && mode !== 'inline') await store.queue(logs);
  };
  const startWorker = (options: PlayerStoreWorkerOptions) => {
    const data: PrototypeWorkerData = { ...(options.data as { delayMs: number }), mode: workerMode.buffer as SharedArrayBuffer, file: join(dir, 'worker.db') };
    return store.startWorker!({ module: new URL('./players-prototype-worker.ts', import.meta.url), data });
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === 'queue') return queue;
      if (property === 'startWorker') return startWorker;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const plan = pinningPlan();
if (PIN) pinSelf(plan.serverCpu);
const server = await startBenchAllInOne({
  name: 'players-api',
  services: SERVICE_NAMES,
  factories: { logs: async (deps) => createLogsService({ ...deps, playerStore: switchable(deps.playerStore!) }) },
});
const poster = PinnedChild.start('players-api-poster', '../../tools/players-api-poster.ts', PIN ? plan.loadCpu : null);
try {
  const logs = server.depsOf('logs');
  const { id: serverId, apiKey } = await server.legendServer('Players');
  const url = `${server.address}/api/logs`;
  const queueFile = join(logs.dataDir, 'players-queue.db');
  let queueDb: DatabaseSync | null = null;
  /** Queue rows not recorded yet (read on a connection of its own). */
  const queueRows = (): number => {
    if (queueDb === null) {
      if (!existsSync(queueFile)) return 0;
      queueDb = new DatabaseSync(queueFile, { readOnly: true });
    }
    return Number((queueDb.prepare('SELECT count(*) AS n FROM player_queue').get() as { n: number }).n);
  };

  // The ingestion read model applies the legend tier through the bus: until then a batch of 1000 may be refused.
  for (let i = 0; ; i++) {
    const probe = await server.app.inject({ method: 'POST', url: '/api/logs', headers: { 'x-api-key': apiKey }, payload: Array.from({ length: 1000 }, () => ({ message: 'probe' })) });
    if (probe.statusCode === 201) break;
    if (i > 200) throw new Error(`the bench server never took a batch of 1000: ${probe.statusCode} ${probe.body}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  let next = 0;
  let expected = await logs.logStore.count(serverId);
  /** Posts the next `count` logs; resolves once they are stored and their players recorded. */
  const round = async (count: number, mode: Recording): Promise<{ seconds: number; cpu: number; posted: Posted }> => {
    recording.mode = mode;
    Atomics.store(workerMode, 0, mode === 'proto' ? RECORD_PROTOTYPE : mode === 'fill' ? RECORD_BOTH : RECORD_SHIPPED);
    await poster.call<number>('prepare', { from: next, count, batch: BATCH } satisfies PrepareBodies);
    next += count;
    expected += count;
    const started = performance.now();
    const cpu = process.cpuUsage();
    const posting = poster.call<Posted>('post', { url, apiKey, connections: CONNECTIONS } satisfies PostBodies);
    let posted: Posted | null = null;
    void posting.then((p) => (posted = p));
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (posted === null) continue;
      if ((await logs.logStore.count(serverId)) < expected) continue;
      if (queueRows() > 0) continue;
      break;
    }
    const used = process.cpuUsage(cpu);
    return { seconds: (performance.now() - started) / 1000, cpu: (used.user + used.system) / count, posted: await posting };
  };

  const filling = performance.now();
  for (let done = 0; done < FILL; done += 50_000) await round(Math.min(50_000, FILL - done), 'fill');
  console.log(`filled ${FILL.toLocaleString('en-US')} logs (recorded every way) in ${((performance.now() - filling) / 1000).toFixed(0)} s; load ${loadavg()[0]!.toFixed(1)}`);

  const rates = new Map<Mode, number[]>(MODES.map((m) => [m, []]));
  const cpus = new Map<Mode, number[]>(MODES.map((m) => [m, []]));
  const ratios = new Map<Mode, number[]>(MODES.map((m) => [m, []]));
  const cpuRatios = new Map<Mode, number[]>(MODES.map((m) => [m, []]));
  const threads = new Map<Mode, Map<string, number>>(MODES.map((m) => [m, new Map()]));
  for (let r = 0; r < ROUNDS; r++) {
    const order = [...MODES.slice(r % MODES.length), ...MODES.slice(0, r % MODES.length)];
    for (const mode of order) {
      const before = cpuByThreadName();
      const { seconds, cpu, posted } = await round(ROUND, mode);
      const byThread = threads.get(mode)!;
      for (const [name, after] of cpuByThreadName()) byThread.set(name, (byThread.get(name) ?? 0) + after - (before.get(name) ?? 0));
      rates.get(mode)!.push(ROUND / seconds);
      cpus.get(mode)!.push(cpu);
      if (posted.retried > 0) console.log(`  round ${r + 1} ${mode}: ${posted.retried} requests answered 503 and sent again`);
    }
    const line: string[] = [];
    for (const mode of MODES) {
      const rate = rates.get(mode)!.at(-1)!;
      const cpu = cpus.get(mode)!.at(-1)!;
      let vs = '';
      if (mode !== 'off' && rates.has('off')) {
        const ratio = rate / rates.get('off')!.at(-1)!;
        const cpuRatio = cpus.get('off')!.at(-1)! / cpu;
        ratios.get(mode)!.push(ratio);
        cpuRatios.get(mode)!.push(cpuRatio);
        vs = ` (${pct(ratio)} by rate, ${pct(cpuRatio)} by CPU)`;
      }
      line.push(`${mode} ${Math.round(rate).toLocaleString('en-US')} logs/s, ${cpu.toFixed(1)} µs${vs}`);
    }
    console.log(`round ${r + 1}: ${line.join('; ')}; load ${loadavg()[0]!.toFixed(1)}`);
  }
  const us = (n: number): string => n.toFixed(1);
  const perSecond = (n: number): string => Math.round(n).toLocaleString('en-US');
  console.log(`\ningest through POST /api/logs (${BATCH} logs a request, ${CONNECTIONS} connections, ${PIN ? plan.note : 'not pinned'}), ${ROUNDS} rounds of ${ROUND.toLocaleString('en-US')} logs a mode after ${FILL.toLocaleString('en-US')}:`);
  const logsOf = ROUND * ROUNDS;
  for (const mode of MODES) {
    console.log(`  ${mode}: rate ${describeSpread(spread(rates.get(mode)!), perSecond)} logs/s; CPU a log ${describeSpread(spread(cpus.get(mode)!), us)} µs`);
    if (mode !== 'off' && rates.has('off')) {
      console.log(`    / off, by rate (wall): ${describeSpread(spread(ratios.get(mode)!), pct)}; by CPU a log (off / ${mode}): ${describeSpread(spread(cpuRatios.get(mode)!), pct)}`);
    }
    const byThread = [...threads.get(mode)!].filter(([, t]) => t > 0).sort((a, b) => b[1] - a[1]);
    console.log(`    CPU by thread (µs a log): ${byThread.map(([name, t]) => `${name} ${(t / logsOf).toFixed(1)}`).join(', ')}`);
  }
  // What the rates would be on two cores doing nothing else (the client elsewhere): the thread storing logs
  // on one core, every other thread on the other, the busier core bounding the rate. Arithmetic from the CPU by
  // thread above, not a measure: on this shared machine no core is idle.
  const boundOf = (mode: Mode): number => {
    let main = 0;
    let others = 0;
    for (const [name, t] of threads.get(mode)!) {
      if (name === 'node-MainThread') main += t;
      else others += t;
    }
    return Math.max(main, others) / logsOf;
  };
  if (MODES.includes('off')) {
    const off = boundOf('off');
    const projected = MODES.filter((m) => m !== 'off').map((m) => `${m} ${pct(off / boundOf(m))} (${boundOf(m).toFixed(1)} µs)`);
    console.log(`  two idle cores, the busier core's CPU a log (main thread / all others): off ${off.toFixed(1)} µs; / off: ${projected.join(', ')}`);
  }
  console.log(`  load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  (queueDb as DatabaseSync | null)?.close();
} finally {
  await poster.close();
  await server.close();
  inline.close();
  rmSync(dir, { recursive: true, force: true });
}
