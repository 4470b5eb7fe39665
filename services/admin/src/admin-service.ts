/**
 * The admin service. Issue 14: it owns the audit trail (THE consumer of the audit topic, its own
 * append-only store) and serves a server's trail (GET /server/{id}/audit-logs) and the staff actions
 * (GET /admin/logs). Issue 15: the staff admin area's reads (stats, accounts, servers and their tabs) from
 * its own read model of the facts other services publish (domain/overview.ts). The area's changes are the
 * owners' routes (auth: accounts and members; billing: tier and suspension; logs: a server's logs).
 */
import type { FastifyInstance } from 'fastify';
import { TOPICS } from '@skald/contracts';
import type { Subscription } from '@skald/ports';
import { authPlugin, createIdentityReadModel } from '@skald/service-kit';
import type { ServiceDeps, ServiceFactory, ServiceModule } from '@skald/service-kit';
import { createAuditTrail } from './domain/audit-trail.ts';
import { createOverview } from './domain/overview.ts';
import { startAuditConsumer } from './events/audit-consumer.ts';
import { startOverviewConsumer } from './events/overview-consumer.ts';
import { registerAdminRoutes } from './http/routes.ts';

export interface AdminServiceOptions {
  /** The clock of the stats' day window; default Date.now. */
  readonly now?: () => number;
}

export async function createAdminServiceWith(deps: ServiceDeps, options: AdminServiceOptions = {}): Promise<ServiceModule> {
  const directory = await createIdentityReadModel({ bus: deps.bus, docs: deps.docs, group: 'admin.identity' });
  const trail = await createAuditTrail(deps.docs);
  const overview = await createOverview(deps.docs);
  let consumers: Subscription[] = [];
  return {
    name: 'admin',
    async routes(app: FastifyInstance) {
      await app.register(authPlugin, { keys: deps.keys, isRevoked: (claims) => directory.isRevoked(claims) });
      await registerAdminRoutes(app, { directory, trail, overview, log: deps.log, now: options.now ?? Date.now });
    },
    async start() {
      await directory.start();
      await deps.bus.ensureTopics([TOPICS.audit, TOPICS.identity, TOPICS.logCounts, TOPICS.backups]);
      consumers = [await startAuditConsumer(deps.bus, trail, overview), await startOverviewConsumer(deps.bus, overview)];
    },
    async stop() {
      const current = consumers;
      consumers = [];
      for (const consumer of current.reverse()) await consumer.stop();
      await directory.stop();
    },
    async ready() {
      return consumers.length === 2;
    },
  };
}

export const createAdminService: ServiceFactory = (deps) => createAdminServiceWith(deps);
