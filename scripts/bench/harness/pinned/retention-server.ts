/**
 * The server under test of the retention benchmark (benchmarks/retention.bench.ts): the all-in-one on the embedded
 * adapters in a temporary folder (LOG_LAYOUT from the environment, default blocks), as skald-server.ts starts it,
 * with the logs service's retention schedule pushed out to a day so that only the bench starts a sweep, and the
 * log and player stores wrapped to time their retention calls.
 *
 * Commands:
 * - provision: a user, a server on the legend tier (never out of quota: unlimited-quota.ts), its key (provision.ts);
 * - fill: a busy server's past written straight into the stores (not what is measured): `hourly` FiveM lines an
 *   hour (fivem-logs.ts) over an expired day and a live day (below), in batches of 1,000 into the log store, each
 *   batch's players recorded into the player store as the recorder would (unless `players` is false); then it
 *   waits until the store caught up (block store: every full block sealed and its parts built; row store: every
 *   row in its search index) and checkpoints;
 * - pin: moves the whole process (every thread) onto a CPU, once filled;
 * - sweep: adds the retention job to its queue, as its schedule would, and answers once the job's handler
 *   returned: the job's span (epoch ms, to compare with the client's send times), deleteExpired's and the
 *   player store's forgetExpired's own spans, and the logs deleted;
 * - probe-start / probe-stop: where the single-log requests' time went inside the process (request-probe.ts),
 *   for those that arrived within a span;
 * - files: the data folder's SQLite files and their sizes; shutdown: a graceful close, answering the files it
 *   left; stop: the folder removed.
 *
 * The two days: the expired one's logs were created 61 days + 2 h to 60 days + 2 h before the fill started, the
 * live one's 60 days - 2 h to 59 days - 2 h before, each expiring 60 days after its creation (Voyager's retention).
 * A sweep started within 2 h of the fill deletes exactly the first day.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '@skald/config';
import type { DeleteResult, JobHandler, JobQueue, LogRecord, LogStore, PlayerStore } from '@skald/ports';
import type { ServiceDeps } from '@skald/service-kit';
import { createIngestionService } from '@skald/ingestion-service';
import { buildAllInOne } from '../../../../gateway/src/all-in-one.ts';
import { createLogsServiceWith } from '../../../../services/logs/src/logs-service.ts';
import { RETENTION_JOB, RETENTION_QUEUE } from '../../../../services/logs/src/domain/retention.ts';
import { mentionsOf } from '../../../../services/logs/src/domain/players/record-players.ts';
import { fivemBatch } from '../fivem-logs.ts';
import { unlimitedQuota } from '../unlimited-quota.ts';
import { pinSelf } from './pinned-child.ts';
import { provisionLegendServer } from './provision.ts';
import { RequestProbe } from './request-probe.ts';
import type { ProbeSplit } from './request-probe.ts';
import { serve } from './child-rpc.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Voyager's retention: the fill's logs expire this long after their creation. */
const RETENTION_MS = 60 * DAY;
/** Hours between the fill's start and the first live log's expiry (and after the last expired log's). */
export const FILL_MARGIN_MS = 2 * HOUR;
const FILL_BATCH = 1000;

const dir = await mkdtemp(join(tmpdir(), 'skald-bench-retention-'));
const layout = process.env['LOG_LAYOUT'] === 'rows' ? 'rows' : 'blocks';
const config = loadConfig({ TARGET: 'all', DATA_DIR: dir, LOG_LEVEL: process.env['BENCH_LOG_LEVEL'] ?? 'info', LOG_LAYOUT: layout });

/** Wall-clock time with sub-millisecond precision, comparable across processes of this machine. */
const epochMs = (): number => performance.timeOrigin + performance.now();

interface Span {
  start: number;
  end: number;
}

/** What the last sweep's calls into the stores took. */
let deleteSpan: Span | null = null;
let deleted: DeleteResult | null = null;
let forgetSpan: Span | null = null;
/** Why the player store's side of the last sweep failed (the job logs it and goes on), if it did. */
let playersFailure: string | null = null;
/** Resolves when the retention job's handler returned (set by `sweep`). */
let jobDone: ((span: Span) => void) | null = null;

/** The object, each method bound to it (private fields stay reachable), with some methods replaced. */
function withMethods<T extends object>(target: T, replaced: Partial<T>): T {
  return new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(replaced, property)) return (replaced as Record<string | symbol, unknown>)[property];
      const value: unknown = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/** Where the single-log requests' time goes (probe-start / probe-stop). */
const probe = new RequestProbe();

function timedLogStore(store: LogStore): LogStore {
  return withMethods(store, {
    insertBatch: (records: readonly LogRecord[]) => probe.storeWrite(() => store.insertBatch(records)),
    async deleteExpired(now: number) {
      const start = epochMs();
      const result = await store.deleteExpired(now);
      deleteSpan = { start, end: epochMs() };
      deleted = result;
      return result;
    },
  });
}

function timedPlayerStore(store: PlayerStore): PlayerStore {
  return withMethods(store, {
    async forgetExpired(now: number) {
      const start = epochMs();
      try {
        await store.forgetExpired(now);
      } catch (error) {
        playersFailure = `forgetExpired: ${String(error)}`;
        throw error;
      }
      forgetSpan = { start, end: epochMs() };
    },
  });
}

/** The job queue, with the retention queue's handler timed (its span handed to the waiting `sweep`). */
function timedJobs(jobs: JobQueue): JobQueue {
  return withMethods(jobs, {
    async process(queue: string, handler: JobHandler, options?: { readonly concurrency?: number }) {
      const timed: JobHandler =
        queue !== RETENTION_QUEUE
          ? handler
          : async (job) => {
              const start = epochMs();
              try {
                await handler(job);
              } finally {
                jobDone?.({ start, end: epochMs() });
              }
            };
      return jobs.process(queue, timed, options);
    },
  });
}

let ingestionDeps: ServiceDeps | undefined;
let logsDeps: ServiceDeps | undefined;
const proc = await buildAllInOne(config, {
  webDist: join(dir, 'no-web'),
  // Errors and worse go to stderr (the bench prints it): a job that logs and goes on would otherwise fail unseen.
  logStream: new Writable({
    write: (chunk: Buffer, _encoding, callback) => {
      if (chunk.includes('"level":50') || chunk.includes('"level":60')) process.stderr.write(chunk);
      callback();
    },
  }),
  factories: {
    ingestion: async (deps) => {
      ingestionDeps = { ...deps, bus: probe.bus(deps.bus), counters: probe.counters(unlimitedQuota(deps.counters)) };
      return createIngestionService(ingestionDeps);
    },
    logs: async (deps) => {
      if (deps.playerStore === undefined) throw new Error('the logs service needs its player store');
      logsDeps = { ...deps, logStore: timedLogStore(deps.logStore), playerStore: timedPlayerStore(deps.playerStore), jobs: timedJobs(deps.jobs) };
      // Only the bench starts a sweep (its first scheduled run is a day away).
      return createLogsServiceWith(logsDeps, { retentionEveryMs: DAY });
    },
  },
});
probe.attach(proc.app.server);
await proc.start();
const address = await proc.app.listen({ port: 0, host: '127.0.0.1' });

export interface Provisioned {
  readonly address: string;
  readonly serverId: string;
  readonly apiKey: string;
  readonly layout: 'rows' | 'blocks';
}

async function provision(): Promise<Provisioned> {
  return { address, layout, ...(await provisionLegendServer(proc.app, ingestionDeps!.bus, ingestionDeps!.counters)) };
}

export interface FillRequest {
  readonly serverId: string;
  readonly hourly: number;
  readonly players: boolean;
}

export interface Filled {
  readonly rows: number;
  /** Logs of the expired day (what a sweep within FILL_MARGIN_MS deletes). */
  readonly expiredRows: number;
  readonly insertMs: number;
  /** From the last insert until the store caught up (seals and parts, or the search index). */
  readonly catchUpMs: number;
  /** When the fill started (epoch ms): a sweep deletes exactly the expired day until FILL_MARGIN_MS after. */
  readonly startedAt: number;
}

/** The hooks of the two layouts the fill waits on (duck-typed: the store behind the port is either). */
interface CatchingUp {
  sealDue?: () => Promise<void>;
  partsBuilt?: () => Promise<void>;
  indexPending?: (max?: number) => number;
}

async function fill(request: FillRequest): Promise<Filled> {
  const deps = logsDeps!;
  const store = deps.logStore;
  const players = deps.playerStore!;
  const startedAt = Date.now();
  const dayRows = request.hourly * 24;
  // The expired day ends FILL_MARGIN_MS before its expiry reaches the fill's start; the live day starts
  // FILL_MARGIN_MS after (a busy server that was off for four hours between them).
  const days = [startedAt - RETENTION_MS - DAY - FILL_MARGIN_MS, startedAt - RETENTION_MS + FILL_MARGIN_MS];
  const t = performance.now();
  for (const t0 of days) {
    for (let start = 0; start < dayRows; start += FILL_BATCH) {
      const logs: LogRecord[] = fivemBatch(request.serverId, start, Math.min(FILL_BATCH, dayRows - start), dayRows, t0, 1);
      await store.insertBatch(logs);
      if (request.players) {
        const queued = logs.map((r) => ({ logId: r.id, serverId: r.serverId, at: r.createdAt, logType: r.logType, expiresAt: r.expiresAt, message: r.message, metadata: r.metadata }));
        await players.record(mentionsOf(queued, deps.log));
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const insertMs = performance.now() - t;
  const caught = performance.now();
  const hooks = store as unknown as CatchingUp;
  if (hooks.sealDue) await hooks.sealDue();
  if (hooks.partsBuilt) await hooks.partsBuilt();
  if (hooks.indexPending) while (hooks.indexPending(1) > 0) await new Promise((resolve) => setTimeout(resolve, 250));
  // The parts the last seals are due are built after them, by the sealer's turn: one more turn waits for them.
  if (hooks.sealDue) await hooks.sealDue();
  return { rows: 2 * dayRows, expiredRows: dayRows, insertMs: Math.round(insertMs), catchUpMs: Math.round(performance.now() - caught), startedAt };
}

export interface Swept {
  readonly job: Span;
  readonly deleteExpired: Span | null;
  readonly forgetExpired: Span | null;
  /** The player store's failure the job logged (its log lines go nowhere here), if any. */
  readonly playersFailure: string | null;
  readonly deletedCount: number;
}

async function sweep(): Promise<Swept> {
  deleteSpan = null;
  forgetSpan = null;
  playersFailure = null;
  deleted = null;
  const done = new Promise<Span>((resolve) => (jobDone = resolve));
  await logsDeps!.jobs.add(RETENTION_QUEUE, RETENTION_JOB, {});
  const job = await done;
  jobDone = null;
  return { job, deleteExpired: deleteSpan, forgetExpired: forgetSpan, playersFailure, deletedCount: (deleted as DeleteResult | null)?.deletedCount ?? 0 };
}

/** Every SQLite file of the data folder (databases, WALs, shared memory) and its size in bytes. */
async function files(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (/\.db(-wal|-shm)?$/.test(entry.name)) out[path.slice(dir.length + 1)] = (await stat(path)).size;
    }
  };
  await walk(dir);
  return out;
}

let closed = false;

serve({
  provision,
  fill,
  pin: (cpu: number | null) => pinSelf(cpu),
  sweep,
  'probe-start': () => probe.start(),
  'probe-stop': ({ from, to }: { from: number; to: number }): ProbeSplit => probe.stop(from, to),
  files,
  stored: (serverId: string) => logsDeps!.logStore.count(serverId),
  /** A graceful close (as on SIGTERM); answers the files it left. */
  async shutdown() {
    closed = true;
    await proc.close();
    return files();
  },
  async stop() {
    if (!closed) await proc.close();
    await rm(dir, { recursive: true, force: true });
  },
});
