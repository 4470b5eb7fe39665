/** The one dependency bag every admin route file receives (built by admin-service.ts). */
import type { FastifyBaseLogger } from 'fastify';
import type { IdentityReadModel } from '@skald/service-kit';
import type { AuditTrail } from '../domain/audit-trail.ts';
import type { UserFigures } from '../domain/admin-stats.ts';
import type { Overview } from '../domain/overview.ts';
import type { ServerMirror } from '../domain/server-mirror.ts';
import type { Snapshot } from '../domain/snapshot.ts';

export interface AdminRouteDeps {
  /** Members' roles (requireServerRole), site roles (staff routes) and server names. */
  readonly directory: IdentityReadModel;
  readonly trail: AuditTrail;
  /** The staff area's accounts and servers with their figures. */
  readonly overview: Overview;
  readonly log: FastifyBaseLogger;
  /** This replica's copy of the known servers (the whole-site answers read it, not the store). */
  readonly servers: ServerMirror;
  /** The account counts of the stats, rebuilt in the background (domain/snapshot.ts). */
  readonly userFigures: Snapshot<UserFigures>;
  /** The clock of the stats' day window (epoch ms). */
  readonly now: () => number;
}
