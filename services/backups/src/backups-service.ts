/**
 * The backups service: game database backups. Owners save the database settings (password
 * sealed at rest), back up now or on a schedule (JobQueue), list, download and delete. The dump engine
 * (domain/dump) streams one consistent snapshot through mysql2 and gzip into the object store.
 */
import type { FastifyInstance } from 'fastify';
import { authPlugin, createAuditPublisher, createIdentityReadModel, createSecretBox } from '@skald/service-kit';
import type { ServiceDeps, ServiceFactory, ServiceModule } from '@skald/service-kit';
import { createBackupRecords } from './domain/backup-records.ts';
import { createBackupRuns } from './domain/backup-runs.ts';
import { createBackupSettingsRepository } from './domain/backup-settings.ts';
import { DEFAULT_DUMP_LIMITS } from './domain/dump/dump-to-object.ts';
import type { DumpLimits } from './domain/dump/dump-to-object.ts';
import { createBackupScheduler, HOUR_MS } from './domain/schedule.ts';
import { createCatalogPublisher } from './domain/catalog-publisher.ts';
import { registerBackupsRoutes } from './http/routes.ts';

export interface BackupsServiceOptions {
  /** The clock of records and audit entries; default Date.now. */
  readonly now?: () => number;
  /** The length of one interval hour (tests schedule in milliseconds); default one hour. */
  readonly hourMs?: number;
  /** Dump timeouts and caps; defaults in dump-to-object.ts. */
  readonly limits?: Partial<DumpLimits>;
  /** How often a running backup renews its run lock; default 10 s (a lock is stale after 6 beats). */
  readonly heartbeatMs?: number;
}

export async function createBackupsServiceWith(deps: ServiceDeps, options: BackupsServiceOptions = {}): Promise<ServiceModule> {
  const now = options.now ?? Date.now;
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const directory = await createIdentityReadModel({ bus: deps.bus, docs: deps.docs, group: 'backups.identity' });
  const settings = await createBackupSettingsRepository(deps.docs, createSecretBox(deps.secretsKey), now);
  const records = await createBackupRecords(deps.docs, { now, staleAfterMs: heartbeatMs * 6 });
  const audit = createAuditPublisher({ bus: deps.bus, directory, now });
  const scheduler = createBackupScheduler(deps.jobs, options.hourMs ?? HOUR_MS);
  const runs = createBackupRuns({
    directory,
    settings,
    records,
    objects: deps.objects,
    outbound: deps.outbound,
    audit,
    catalog: createCatalogPublisher({ bus: deps.bus, records, log: deps.log }),
    log: deps.log,
    now,
    limits: { ...DEFAULT_DUMP_LIMITS, ...options.limits },
    heartbeatMs,
  });
  let started = false;
  return {
    name: 'backups',
    async routes(app: FastifyInstance) {
      await app.register(authPlugin, { keys: deps.keys, isRevoked: (claims) => directory.isRevoked(claims) });
      await registerBackupsRoutes(app, { directory, settings, records, runs, scheduler, objects: deps.objects, outbound: deps.outbound, audit, log: deps.log });
    },
    async start() {
      await directory.start();
      await scheduler.start(runs);
      started = true;
    },
    async stop() {
      started = false;
      await scheduler.stop();
      await runs.stop();
      await directory.stop();
    },
    async ready() {
      return started;
    },
  };
}

export const createBackupsService: ServiceFactory = (deps) => createBackupsServiceWith(deps);
