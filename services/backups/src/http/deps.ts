/** The one dependency bag every backups route file receives (built by backups-service.ts). */
import type { FastifyBaseLogger } from 'fastify';
import type { ObjectStore } from '@skald/ports';
import type { AuditPublisher, OutboundGuard } from '@skald/service-kit';
import type { BackupRecords } from '../domain/backup-records.ts';
import type { BackupRuns } from '../domain/backup-runs.ts';
import type { BackupSettingsRepository } from '../domain/backup-settings.ts';
import type { BackupScheduler } from '../domain/schedule.ts';
import type { ServerDirectory } from '../domain/server-directory.ts';

export interface BackupsRouteDeps {
  /** Members' roles (the owner guard) and servers' tiers (maxBackups). */
  readonly directory: ServerDirectory;
  readonly settings: BackupSettingsRepository;
  readonly records: BackupRecords;
  readonly runs: BackupRuns;
  readonly scheduler: BackupScheduler;
  readonly objects: ObjectStore;
  /** Checks db_host when settings are saved (and every run checks it again). */
  readonly outbound: OutboundGuard;
  readonly audit: AuditPublisher;
  readonly log: FastifyBaseLogger;
}
