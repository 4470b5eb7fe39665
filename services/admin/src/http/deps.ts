/** The one dependency bag every admin route file receives (built by admin-service.ts). */
import type { FastifyBaseLogger } from 'fastify';
import type { IdentityReadModel } from '@skald/service-kit';
import type { AuditTrail } from '../domain/audit-trail.ts';
import type { Overview } from '../domain/overview.ts';

export interface AdminRouteDeps {
  /** Members' roles (requireServerRole), site roles (staff routes) and server names. */
  readonly directory: IdentityReadModel;
  readonly trail: AuditTrail;
  /** The staff area's accounts and servers with their figures. */
  readonly overview: Overview;
  readonly log: FastifyBaseLogger;
  /** The clock of the stats' day window (epoch ms). */
  readonly now: () => number;
}
