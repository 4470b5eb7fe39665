/**
 * The backups service's facts for readers elsewhere (the admin area's backup counts and sizes): after every
 * change of a server's stored backups (a run done, a backup deleted, rotation) it publishes the server's
 * whole catalog as `backup.catalog-changed` on the backups history topic, keyed by server, so the last fact
 * per server is the truth and a reader added later starts from it (docs/EVENTS.md "Data another service owns"). A publish that fails is logged, not retried: the next change publishes the full list again.
 */
import type { FastifyBaseLogger } from 'fastify';
import { BackupCatalogChangedEvent, MAX_BACKUP_CATALOG, eventMessage } from '@skald/contracts';
import type { EventBus } from '@skald/ports';
import type { BackupRecords } from './backup-records.ts';

export interface CatalogPublisher {
  publish(serverId: string): Promise<void>;
}

export function createCatalogPublisher(deps: { bus: EventBus; records: Pick<BackupRecords, 'list'>; log: FastifyBaseLogger }): CatalogPublisher {
  return {
    async publish(serverId) {
      try {
        const done = (await deps.records.list(serverId)).filter((b) => b.status === 'done').slice(0, MAX_BACKUP_CATALOG);
        const backups = done.map((b) => ({ id: b._id, size: b.size, createdAt: new Date(b.finishedAt ?? b.createdAt).toISOString() }));
        await deps.bus.publish([eventMessage(BackupCatalogChangedEvent, serverId, { serverId, backups })]);
      } catch (error) {
        deps.log.error({ err: error, serverId }, 'backups: could not publish the backup catalog');
      }
    },
  };
}
