/**
 * The all-in-one of an HTTP benchmark: the chosen services on the embedded adapters in a temporary folder,
 * listening on port 0, ingestion's quota never running out (unlimited-quota.ts), a registered bench user,
 * and Legend servers made through the routes. Each service's deps are kept, so a benchmark can read its bus
 * or stores.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@skald/config';
import { ServerTierChangedEvent, publishEvent } from '@skald/contracts';
import type { ServiceDeps, ServiceName } from '@skald/service-kit';
import { buildAllInOne } from '../../../gateway/src/all-in-one.ts';
import { loadServiceFactory } from '../../../gateway/src/service-registry.ts';
import type { FactoryOverrides } from '../../../gateway/src/service-registry.ts';
import { unlimitedQuota } from './unlimited-quota.ts';

export interface BenchAllInOne {
  readonly app: FastifyInstance;
  /** http://127.0.0.1:<port> */
  readonly address: string;
  /** The bench user's bearer header. */
  readonly auth: { readonly authorization: string };
  /** The deps a service was built with (ingestion's with the never-ending quota). */
  depsOf(service: ServiceName): ServiceDeps;
  /** A server of the bench user on the Legend tier (published as billing does), and its API key. */
  legendServer(name: string): Promise<{ id: string; apiKey: string }>;
  /** Closes the process and removes its folder. */
  close(): Promise<void>;
}

export interface BenchAllInOneOptions {
  /** Names the temporary folder (skald-bench-<name>-). */
  readonly name: string;
  readonly services: readonly ServiceName[];
  /** More settings (OUTBOUND_ALLOWED_HOSTS for a local receiver). */
  readonly env?: Record<string, string>;
  /** Factories in place of the registered ones. */
  readonly factories?: FactoryOverrides;
}

export async function startBenchAllInOne(options: BenchAllInOneOptions): Promise<BenchAllInOne> {
  const dir = await mkdtemp(join(tmpdir(), `skald-bench-${options.name}-`));
  const config = loadConfig({ TARGET: 'all', DATA_DIR: dir, LOG_LEVEL: 'warn', ...options.env });
  const built = new Map<ServiceName, ServiceDeps>();
  const factories: FactoryOverrides = Object.fromEntries(
    options.services.map((service) => [
      service,
      async (deps: ServiceDeps) => {
        const own = service === 'ingestion' ? { ...deps, counters: unlimitedQuota(deps.counters) } : deps;
        built.set(service, own);
        return (await loadServiceFactory(service, options.factories))(own);
      },
    ]),
  );
  const proc = await buildAllInOne(config, { services: options.services, webDist: join(dir, 'no-web'), logStream: new Writable({ write: (_c, _e, cb) => cb() }), factories });
  const close = async (): Promise<void> => {
    await proc.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await proc.start();
    const address = await proc.app.listen({ port: 0, host: '127.0.0.1' });
    const app = proc.app;
    const password = 'correct horse battery staple 42';
    await app.inject({ method: 'POST', url: '/api/auth/register', payload: { username: 'bench', password, email: 'bench@example.com' } });
    const token = (await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'bench', password } })).json<{ token: string }>().token;
    const auth = { authorization: `Bearer ${token}` };
    const depsOf = (service: ServiceName): ServiceDeps => {
      const deps = built.get(service);
      if (!deps) throw new Error(`${service} is not running in this benchmark`);
      return deps;
    };
    return {
      app,
      address,
      auth,
      depsOf,
      async legendServer(name) {
        const created = (await app.inject({ method: 'POST', url: '/api/server/servers', headers: auth, payload: { name } })).json<{ id: string; api_key: string }>();
        await publishEvent(depsOf('ingestion').bus, ServerTierChangedEvent, created.id, { serverId: created.id, tier: 'legend' });
        return { id: created.id, apiKey: created.api_key };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
