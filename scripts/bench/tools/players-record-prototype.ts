/**
 * What recording players would cost without (player, log) rows and per-log counts (docs/PLAYERS.md, "Ingest
 * through the API"): only the players themselves kept as logs arrive (identifier -> player, names, seen
 * times), compared in memory against the remembered player, written only when an identifier, a name or a
 * player is new, or a player comes back after being let go (a read of its identifiers and names), and seen
 * times written once a round for the players touched. A prototype, not the store: no merges (a log joining
 * two players is counted, not merged), one server.
 *
 * Per log of the players benchmark's logs (logAt), in alternating rounds of PLAYERS_PROTO_ROUND logs (default
 * 20,000) over PLAYERS_PROTO_ROUNDS (default 8) after PLAYERS_PROTO_FILL logs (default 500,000), CPU of this
 * thread and of the whole process, microseconds a log:
 *   - storing a log without identity (the logs service's store path, as the players benchmark's rounds);
 *   - the store path's queue row of keys (the player store's `queue`, as shipped);
 *   - on the recorder's side, as its thread would run it: the logs read back from the log store by key
 *     (one read transaction a run of 10,000), the JSON pre-check, parse and extraction, then the prototype's
 *     recording (memory compare, writes in one transaction a run);
 *   - the same recording fed by extraction from metadata already parsed (as the logs consumer holds it):
 *     what identity would cost on the store path itself, with no queue and no reading back.
 * PLAYERS_PROTO_REMEMBER (default 20,000): players kept in memory (the least recently seen let go).
 * Run: `node_modules/.bin/node scripts/bench/tools/players-record-prototype.ts` (from the repository's root).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir, loadavg } from 'node:os';
import pino from 'pino';
import type { LogsBatchAccepted } from '@skald/contracts';
import { eventSource } from '../harness/accepted-event.ts';
import type { LogMentions, QueuedLog, RecordableLog } from '@skald/ports';
import { createTestDeps } from '@skald/testing';
import { SqliteLogTexts, packKeys } from '../../../libs/adapters/src/player-store/sqlite-log-texts.ts';
import { extractPlayers } from '../../../services/logs/src/domain/identity/extract-players.ts';
import { mentionsOf } from '../../../services/logs/src/domain/players/record-players.ts';
import type { ServerDirectory } from '../../../services/logs/src/domain/server-directory.ts';
import { storeAcceptedBatches } from '../../../services/logs/src/domain/store-batch.ts';
import type { StoreBatchDeps } from '../../../services/logs/src/domain/store-batch.ts';
import { SERVER, logAt } from '../benchmarks/players.bench.ts';
import { PrototypePlayers } from './players-prototype-store.ts';

const FILL = Number(process.env['PLAYERS_PROTO_FILL'] ?? 500_000);
const ROUND = Number(process.env['PLAYERS_PROTO_ROUND'] ?? 20_000);
const ROUNDS = Number(process.env['PLAYERS_PROTO_ROUNDS'] ?? 8);
const EVENT_LOGS = 1000;
const RUN_LOGS = 10_000;
const RETENTION_MS = 90 * 86_400_000;

interface Cpu {
  readonly thread: number;
  readonly process: number;
}

function cpuOf(count: number, work: () => void): Cpu;
function cpuOf(count: number, work: () => Promise<void>): Promise<Cpu>;
function cpuOf(count: number, work: () => void | Promise<void>): Cpu | Promise<Cpu> {
  const thread = process.threadCpuUsage();
  const whole = process.cpuUsage();
  const done = (): Cpu => {
    const t = process.threadCpuUsage(thread);
    const w = process.cpuUsage(whole);
    return { thread: (t.user + t.system) / count, process: (w.user + w.system) / count };
  };
  const result = work();
  return result instanceof Promise ? result.then(done) : done();
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const deps = await createTestDeps({ service: 'logs' });
const dir = mkdtempSync(join(tmpdir(), 'skald-players-proto-'));
const fromStored = new PrototypePlayers(join(dir, 'stored.db'));
const fromParsed = new PrototypePlayers(join(dir, 'parsed.db'));
const texts = new SqliteLogTexts(join(deps.root, 'logs', 'logs.db'));
try {
  const directory = { server: async () => ({ tier: 'legend' }) } as unknown as ServerDirectory;
  const base: StoreBatchDeps = { logStore: deps.logStore, objects: deps.objects, directory, log: pino({ level: 'silent' }), notifyStored: async () => undefined };
  const silent = { warn: () => undefined };
  const eventsOf = eventSource(logAt, SERVER, EVENT_LOGS);
  const storeAll = async (events: readonly LogsBatchAccepted[]): Promise<void> => {
    for (const event of events) {
      await storeAcceptedBatches(base, [{ event, batchId: `batch-${event.logs[0]!.id}` }]);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
  const queuedOf = (events: readonly LogsBatchAccepted[]): QueuedLog[][] =>
    events.map((event) => event.logs.map((a) => ({ logId: a.id, serverId: SERVER, at: a.createdAt, logType: a.logType, expiresAt: a.createdAt + RETENTION_MS, message: a.message, metadata: a.metadata })));
  /** The recorder's side: keys rows read back in runs, pre-check, parse, extraction, the prototype's recording. */
  const recordStored = (rows: readonly string[]): void => {
    for (let start = 0; start < rows.length; start += RUN_LOGS / EVENT_LOGS) {
      const logs: RecordableLog[] = [];
      texts.reading(() => {
        for (const row of rows.slice(start, start + RUN_LOGS / EVENT_LOGS)) texts.logsOf(row, logs);
      });
      fromStored.record(mentionsOf(logs, silent));
    }
    fromStored.writeSeenTimes();
  };
  /** Extraction from metadata already parsed (the consumer's objects), then the same recording. */
  const recordParsed = (events: readonly LogsBatchAccepted[]): void => {
    for (const event of events) {
      const mentions: LogMentions[] = [];
      for (const a of event.logs) {
        const players = extractPlayers(a.message, a.metadata);
        if (players.length > 0) mentions.push({ logId: a.id, serverId: SERVER, at: a.createdAt, logType: a.logType, expiresAt: a.createdAt + RETENTION_MS, players });
      }
      fromParsed.record(mentions);
    }
    fromParsed.writeSeenTimes();
  };

  for (let done = 0; done < FILL; done += 100_000) {
    const events = eventsOf(Math.min(100_000, FILL - done));
    await storeAll(events);
    recordStored(queuedOf(events).map(packKeys));
    recordParsed(events);
  }
  console.log(`filled ${FILL.toLocaleString('en-US')} logs; load ${loadavg()[0]!.toFixed(1)}`);

  const figures = { store: [] as Cpu[], queue: [] as Cpu[], stored: [] as Cpu[], parsed: [] as Cpu[] };
  const writesBefore = { stored: fromStored.writes, loads: fromStored.loads };
  for (let round = 0; round < ROUNDS; round++) {
    const events = eventsOf(ROUND);
    const queued = queuedOf(events);
    figures.store.push(await cpuOf(ROUND, () => storeAll(events)));
    // The store path's queue row as shipped (keys: the log store keeps the texts), one a batch.
    figures.queue.push(await cpuOf(ROUND, async () => void (await Promise.all(queued.map((logs) => deps.playerStore!.queue(logs))))));
    const rows = queued.map(packKeys);
    const order = round % 2 === 0 ? (['stored', 'parsed'] as const) : (['parsed', 'stored'] as const);
    for (const measure of order) {
      if (measure === 'stored') figures.stored.push(cpuOf(ROUND, () => recordStored(rows)));
      else figures.parsed.push(cpuOf(ROUND, () => recordParsed(events)));
    }
    const last = (list: readonly Cpu[]): string => `${list.at(-1)!.thread.toFixed(2)} / ${list.at(-1)!.process.toFixed(2)}`;
    console.log(
      `round ${round + 1}: µs a log (thread / process): storing ${last(figures.store)}; queue row ${last(figures.queue)}; recorded from the stored logs ${last(figures.stored)}; from parsed metadata ${last(figures.parsed)}; load ${loadavg()[0]!.toFixed(1)}`,
    );
  }
  const of = (list: readonly Cpu[], key: keyof Cpu): string => median(list.map((cpu) => cpu[key])).toFixed(2);
  const logs = ROUND * ROUNDS;
  console.log(`\nmedians over ${ROUNDS} rounds of ${ROUND.toLocaleString('en-US')} logs after ${FILL.toLocaleString('en-US')} (µs a log, this thread / the whole process):`);
  console.log(`  storing without identity (the store path):                    ${of(figures.store, 'thread')} / ${of(figures.store, 'process')}`);
  console.log(`  the queue row of keys (store path):                           ${of(figures.queue, 'thread')} / ${of(figures.queue, 'process')}`);
  console.log(`  recorded from the stored logs (read back, parse, extract, prototype): ${of(figures.stored, 'thread')} / ${of(figures.stored, 'process')}`);
  console.log(`  recorded from parsed metadata (extract, prototype):           ${of(figures.parsed, 'thread')} / ${of(figures.parsed, 'process')}`);
  console.log(`  prototype writes a 1,000 logs over the rounds: ${(((fromStored.writes - writesBefore.stored) * 1000) / logs).toFixed(1)}; players read back a 1,000 logs: ${(((fromStored.loads - writesBefore.loads) * 1000) / logs).toFixed(1)}; joins seen (not merged): ${fromStored.joins}`);
  console.log(`  load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
} finally {
  texts.close();
  fromStored.close();
  fromParsed.close();
  rmSync(dir, { recursive: true, force: true });
  await deps.cleanup();
}
