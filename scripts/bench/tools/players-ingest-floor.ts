/**
 * The floor of identity at ingestion (docs/PLAYERS.md, "The player view at 5 million logs", where the ingest bar's floor is): per log of the players
 * benchmark's logs, the CPU of finding their players alone (no player store: the JSON pre-check, parsing the
 * metadata as the log store keeps it, extraction), beside the CPU of storing a log without identity through
 * the logs service's store path (the embedded log store, as the benchmark's rounds without identity), in the
 * same run, alternating rounds of PLAYERS_FLOOR_ROUND logs (default 20,000) over PLAYERS_FLOOR_ROUNDS rounds
 * (default 8) after PLAYERS_FLOOR_FILL logs stored first (default 500,000). Also extraction from metadata
 * already parsed (what extraction would cost where the request body is parsed anyway).
 * CPU: this thread's (process.threadCpuUsage) and the whole process's (process.cpuUsage: the log store's
 * checkpoints and V8's GC helpers included), microseconds a log.
 * Run: `node_modules/.bin/node scripts/bench/tools/players-ingest-floor.ts` (from the repository's root).
 */
import { loadavg } from 'node:os';
import pino from 'pino';
import type { LogsBatchAccepted } from '@skald/contracts';
import { eventSource } from '../harness/accepted-event.ts';
import type { RecordableLog } from '@skald/ports';
import { createTestDeps } from '@skald/testing';
import { extractPlayers } from '../../../services/logs/src/domain/identity/extract-players.ts';
import { mentionsOf } from '../../../services/logs/src/domain/players/record-players.ts';
import type { ServerDirectory } from '../../../services/logs/src/domain/server-directory.ts';
import { storeAcceptedBatches } from '../../../services/logs/src/domain/store-batch.ts';
import type { StoreBatchDeps } from '../../../services/logs/src/domain/store-batch.ts';
import { SERVER, logAt } from '../benchmarks/players.bench.ts';

const FILL = Number(process.env['PLAYERS_FLOOR_FILL'] ?? 500_000);
const ROUND = Number(process.env['PLAYERS_FLOOR_ROUND'] ?? 20_000);
const ROUNDS = Number(process.env['PLAYERS_FLOOR_ROUNDS'] ?? 8);
const EVENT_LOGS = 1000;

interface Cpu {
  readonly thread: number;
  readonly process: number;
}

/** CPU microseconds a log of `work` over `count` logs: this thread's and the whole process's. */
async function cpuOf(count: number, work: () => Promise<void> | void): Promise<Cpu> {
  const thread = process.threadCpuUsage();
  const whole = process.cpuUsage();
  await work();
  const t = process.threadCpuUsage(thread);
  const w = process.cpuUsage(whole);
  return { thread: (t.user + t.system) / count, process: (w.user + w.system) / count };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const deps = await createTestDeps({ service: 'logs' });
try {
  const directory = { server: async () => ({ tier: 'legend' }) } as unknown as ServerDirectory;
  const base: StoreBatchDeps = { logStore: deps.logStore, objects: deps.objects, directory, log: pino({ level: 'silent' }), notifyStored: async () => undefined };
  const eventsOf = eventSource(logAt, SERVER, EVENT_LOGS);
  const storeAll = async (events: readonly LogsBatchAccepted[]): Promise<void> => {
    for (const event of events) {
      await storeAcceptedBatches(base, [{ event, batchId: `batch-${event.logs[0]!.id}` }]);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
  for (let done = 0; done < FILL; done += 100_000) await storeAll(eventsOf(Math.min(100_000, FILL - done)));

  const silent = { warn: () => undefined };
  const figures = { store: [] as Cpu[], floor: [] as Cpu[], parsed: [] as Cpu[] };
  let players = 0;
  for (let round = 0; round < ROUNDS; round++) {
    // The same logs for the three measures of a round: stored, then their players found two ways.
    const events = eventsOf(ROUND);
    const accepted = events.flatMap((event) => event.logs);
    // As the recorder gets them: the metadata as the JSON text the log store keeps.
    const queued: RecordableLog[] = accepted.map((a) => ({
      logId: a.id,
      serverId: SERVER,
      at: a.createdAt,
      logType: a.logType,
      expiresAt: a.createdAt + 90 * 86_400_000,
      message: a.message,
      metadata: a.metadata === null ? null : JSON.stringify(a.metadata),
    }));
    const order = round % 2 === 0 ? (['store', 'floor', 'parsed'] as const) : (['parsed', 'floor', 'store'] as const);
    for (const measure of order) {
      if (measure === 'store') figures.store.push(await cpuOf(ROUND, () => storeAll(events)));
      else if (measure === 'floor') figures.floor.push(await cpuOf(ROUND, () => void (players += mentionsOf(queued, silent).length)));
      else figures.parsed.push(await cpuOf(ROUND, () => void (players += accepted.reduce((n, a) => n + extractPlayers(a.message, a.metadata).length, 0))));
    }
    const last = (list: readonly Cpu[]): string => `${list.at(-1)!.thread.toFixed(2)} / ${list.at(-1)!.process.toFixed(2)}`;
    console.log(
      `round ${round + 1}: µs a log (thread / process): storing without identity ${last(figures.store)}; finding players from JSON text ${last(figures.floor)}; from parsed metadata ${last(figures.parsed)}; load ${loadavg()[0]!.toFixed(1)}`,
    );
  }
  const of = (list: readonly Cpu[], key: keyof Cpu): number => median(list.map((cpu) => cpu[key]));
  const store = of(figures.store, 'thread');
  const floor = of(figures.floor, 'thread');
  const parsed = of(figures.parsed, 'thread');
  console.log(`medians over ${ROUNDS} rounds of ${ROUND.toLocaleString('en-US')} logs, on a log store of ${FILL.toLocaleString('en-US')}+ logs (${players} player mentions found):`);
  console.log(`  storing a log without identity: ${store.toFixed(2)} µs (thread), ${of(figures.store, 'process').toFixed(2)} µs (process)`);
  console.log(`  finding its players from the stored JSON (pre-check, JSON.parse, extraction): ${floor.toFixed(2)} µs (thread), ${of(figures.floor, 'process').toFixed(2)} µs (process): ${((100 * floor) / store).toFixed(0)}% of storing`);
  console.log(`  finding its players from metadata already parsed (extraction alone): ${parsed.toFixed(2)} µs (thread), ${of(figures.parsed, 'process').toFixed(2)} µs (process): ${((100 * parsed) / store).toFixed(0)}% of storing`);
  console.log(`  the 90% bar leaves identity ${(store / 9).toFixed(2)} µs a log (storing / 9) of the thread's CPU`);
} finally {
  await deps.cleanup();
}
