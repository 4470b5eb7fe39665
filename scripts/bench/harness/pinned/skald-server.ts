/**
 * The server under test: the all-in-one process (buildAllInOne, embedded adapters: SQLite bus journal,
 * SQLite log store, memory counters; every service unless BENCH_SERVICES lists some), listening on a
 * loopback port, at the shipped log level (info, lines written to a sink) unless BENCH_LOG_LEVEL says
 * otherwise. The quota is checked on every request but can never run out (unlimited-quota.ts).
 * BENCH_FREE_BUS=1: the ingestion service's accepted logs are acknowledged without being published (its
 * bus drops `logs.batch-accepted` messages and answers at once; nothing is stored): everything of a
 * single-log request but the durable bus and the store, the ceiling of that path for any bus and store.
 *
 * Commands: provision (a user, a server on the legend tier, its key), stored (logs the store holds for
 * the server), rss / watch / peak (memory), background-threads (the adapters' worker threads alive),
 * memory (process.memoryUsage() and V8's heap by space), stop; and every child's cpu, loop-delay-start /
 * loop-delay-stop and profile-start / profile-stop (child-rpc.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { flushCompileCache } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { getHeapSpaceStatistics } from 'node:v8';
import { backgroundThreadsAlive } from '@skald/adapters';
import { loadConfig } from '@skald/config';
import { TOPICS } from '@skald/contracts';
import type { EventBus, LogStore, PublishInput } from '@skald/ports';
import type { ServiceDeps, ServiceName } from '@skald/service-kit';
import { createIngestionService } from '@skald/ingestion-service';
import { createLogsService } from '@skald/logs-service';
import { buildAllInOne } from '../../../../gateway/src/all-in-one.ts';
import { unlimitedQuota } from '../unlimited-quota.ts';
import { PeakRss, rssSplit, serve } from './child-rpc.ts';
import { provisionLegendServer } from './provision.ts';

// As gateway/src/main.ts does once its modules are loaded: the compile cache's entries freed before the
// stores and routes allocate, so they reuse the space.
flushCompileCache();

const dir = await mkdtemp(join(tmpdir(), 'skald-bench-pinned-'));
const config = loadConfig({ TARGET: 'all', DATA_DIR: dir, LOG_LEVEL: process.env['BENCH_LOG_LEVEL'] ?? 'info' });
const services = process.env['BENCH_SERVICES'] ? (process.env['BENCH_SERVICES'].split(',') as ServiceName[]) : undefined;
let ingestionDeps: ServiceDeps | undefined;
const FREE_BUS = process.env['BENCH_FREE_BUS'] === '1';

/** The bus as it is, except that accepted logs are dropped at once (BENCH_FREE_BUS). */
function withoutAcceptedLogs(bus: EventBus): EventBus {
  const publish = async (messages: readonly PublishInput[]): Promise<void> => {
    const kept = messages.filter((message) => message.topic !== TOPICS.logsIngested);
    if (kept.length > 0) await bus.publish(kept);
  };
  return new Proxy(bus, {
    get(target, property) {
      if (property === 'publish') return publish;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
let logStore: LogStore | undefined;
const proc = await buildAllInOne(config, {
  ...(services ? { services } : {}),
  webDist: join(dir, 'no-web'),
  logStream: new Writable({ write: (_chunk, _encoding, callback) => callback() }),
  factories: {
    ingestion: async (deps) => {
      ingestionDeps = { ...deps, counters: unlimitedQuota(deps.counters), ...(FREE_BUS ? { bus: withoutAcceptedLogs(deps.bus) } : {}) };
      return createIngestionService(ingestionDeps);
    },
    logs: async (deps) => {
      logStore = deps.logStore;
      return createLogsService(deps);
    },
  },
});
await proc.start();
const address = await proc.app.listen({ port: 0, host: '127.0.0.1' });
const peak = new PeakRss();

export interface Provisioned {
  readonly address: string;
  readonly serverId: string;
  readonly apiKey: string;
}

async function provision(): Promise<Provisioned> {
  return { address, ...(await provisionLegendServer(proc.app, ingestionDeps!.bus, ingestionDeps!.counters)) };
}

serve({
  provision,
  stored: (serverId: string) => logStore!.count(serverId),
  rss: () => rssSplit(),
  // The adapters' worker threads alive now (each holds its own V8 isolate): the idle reading waits for none.
  'background-threads': () => backgroundThreadsAlive(),
  // Where the memory is: process.memoryUsage() and V8's heap spaces, committed and used.
  memory: () => ({
    usage: process.memoryUsage(),
    spaces: getHeapSpaceStatistics().map((space) => ({ space: space.space_name, size: space.space_size, used: space.space_used_size })),
  }),
  watch: () => peak.start(),
  peak: () => peak.stop(),
  async stop() {
    await proc.close();
    await rm(dir, { recursive: true, force: true });
  },
});
