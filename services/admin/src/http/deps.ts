/** The one dependency bag every admin route file receives (built by admin-service.ts). */
import type { FastifyBaseLogger } from 'fastify';
import type { IdentityReadModel } from '@skald/service-kit';
import type { AuditTrail } from '../domain/audit-trail.ts';

export interface AdminRouteDeps {
  /** Members' roles (requireServerRole), site roles (staff routes) and server names. */
  readonly directory: IdentityReadModel;
  readonly trail: AuditTrail;
  readonly log: FastifyBaseLogger;
}
