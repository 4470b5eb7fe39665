/**
 * The admin service. Issue 14: it owns the audit trail (THE consumer of the audit topic, its own
 * append-only store) and serves a server's trail (GET /server/{id}/audit-logs) and the staff actions
 * (GET /admin/logs). The staff admin area (issue 15) adds its screens' routes here.
 */
import type { FastifyInstance } from 'fastify';
import { TOPICS } from '@skald/contracts';
import type { Subscription } from '@skald/ports';
import { authPlugin, createIdentityReadModel } from '@skald/service-kit';
import type { ServiceDeps, ServiceFactory, ServiceModule } from '@skald/service-kit';
import { createAuditTrail } from './domain/audit-trail.ts';
import { startAuditConsumer } from './events/audit-consumer.ts';
import { registerAdminRoutes } from './http/routes.ts';

export async function createAdminServiceWith(deps: ServiceDeps): Promise<ServiceModule> {
  const directory = await createIdentityReadModel({ bus: deps.bus, docs: deps.docs, group: 'admin.identity' });
  const trail = await createAuditTrail(deps.docs);
  let consumer: Subscription | null = null;
  return {
    name: 'admin',
    async routes(app: FastifyInstance) {
      await app.register(authPlugin, { keys: deps.keys, isRevoked: (claims) => directory.isRevoked(claims) });
      await registerAdminRoutes(app, { directory, trail, log: deps.log });
    },
    async start() {
      await directory.start();
      await deps.bus.ensureTopics([TOPICS.audit]);
      consumer = await startAuditConsumer(deps.bus, trail);
    },
    async stop() {
      const current = consumer;
      consumer = null;
      if (current) await current.stop();
      await directory.stop();
    },
    async ready() {
      return consumer !== null;
    },
  };
}

export const createAdminService: ServiceFactory = (deps) => createAdminServiceWith(deps);
