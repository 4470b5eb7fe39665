/**
 * The admin service. It owns the audit trail (THE consumer of the audit topic, its own
 * append-only store) and serves a server's trail (GET /server/{id}/audit-logs) and the staff actions
 * (GET /admin/logs), and serves the staff admin area's reads (stats, accounts, servers and their tabs) from
 * its own read model of the facts other services publish (domain/overview.ts). The area's changes are the
 * owners' routes (auth: accounts and members; billing: tier and suspension; logs: a server's logs).
 */
import type { FastifyInstance } from 'fastify';
import { TOPICS } from '@skald/contracts';
import type { Subscription } from '@skald/ports';
import { authPlugin, createIdentityReadModel } from '@skald/service-kit';
import type { ServiceDeps, ServiceFactory, ServiceModule } from '@skald/service-kit';
import { createAuditTrail } from './domain/audit-trail.ts';
import { countUsers } from './domain/admin-stats.ts';
import { createOverview } from './domain/overview.ts';
import { createServerMirror } from './domain/server-mirror.ts';
import { createSnapshot } from './domain/snapshot.ts';
import { startAuditConsumer } from './events/audit-consumer.ts';
import { startLiveCountsObserver } from './events/live-counts-observer.ts';
import { startOverviewConsumer } from './events/overview-consumer.ts';
import { registerAdminRoutes } from './http/routes.ts';

export interface AdminServiceOptions {
  /** The clock of the stats' day window; default Date.now. */
  readonly now?: () => number;
}

/** How old this replica's copy of the servers and the account counts may be when an answer uses them. */
export const SERVERS_REFRESH_MS = 1_000;
export const USER_FIGURES_MAX_AGE_MS = 5_000;
/** Writes stamped this long before the last one seen are read again (another replica's, a clock behind). */
export const SERVERS_OVERLAP_MS = 5_000;

export async function createAdminServiceWith(deps: ServiceDeps, options: AdminServiceOptions = {}): Promise<ServiceModule> {
  const directory = await createIdentityReadModel({ bus: deps.bus, docs: deps.docs, group: 'admin.identity' });
  const trail = await createAuditTrail(deps.docs);
  const overview = await createOverview(deps.docs);
  const now = options.now ?? Date.now;
  const servers = createServerMirror(overview, { refreshMs: SERVERS_REFRESH_MS, overlapMs: SERVERS_OVERLAP_MS });
  const userFigures = createSnapshot(() => countUsers(overview, now()), USER_FIGURES_MAX_AGE_MS);
  let consumers: Subscription[] = [];
  let liveCounts: Subscription | null = null;
  return {
    name: 'admin',
    async routes(app: FastifyInstance) {
      await app.register(authPlugin, { keys: deps.keys, isRevoked: (claims) => directory.isRevoked(claims) });
      await registerAdminRoutes(app, { directory, trail, overview, log: deps.log, servers, userFigures, now });
    },
    async start() {
      await directory.start();
      await deps.bus.ensureTopics([TOPICS.audit, TOPICS.identity, TOPICS.logCounts, TOPICS.logCountsLive, TOPICS.backups]);
      consumers = [await startAuditConsumer(deps.bus, trail, overview), await startOverviewConsumer(deps.bus, overview)];
      liveCounts = await startLiveCountsObserver(deps.bus, servers, (error, message) =>
        deps.log.warn({ err: error, topic: message.topic, key: message.key }, 'admin: a live counts fact was skipped'),
      );
    },
    async stop() {
      const observer = liveCounts;
      liveCounts = null;
      if (observer) await observer.stop();
      const current = consumers;
      consumers = [];
      for (const consumer of current.reverse()) await consumer.stop();
      await directory.stop();
    },
    async ready() {
      return consumers.length === 2 && liveCounts !== null;
    },
  };
}

export const createAdminService: ServiceFactory = (deps) => createAdminServiceWith(deps);
