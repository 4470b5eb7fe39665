/**
 * Backup runs: the rules around the dump engine. A run needs a tier with backups, complete settings and
 * the server's run lock (one at a time, across instances: a second create is a 409). A manual create
 * answers at once and the run continues in the background; a scheduled run is awaited by its job. Every
 * run ends recorded as done (then the oldest backups past the tier's maxBackups are removed, objects
 * first) or failed with a reason and no object.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { BackupCreated } from '@skald/contracts';
import type { ObjectStore } from '@skald/ports';
import { HttpError } from '@skald/service-kit';
import { SYSTEM_ACTOR } from '@skald/service-kit';
import type { AuditPublisher, OutboundGuard } from '@skald/service-kit';
import type { CatalogPublisher } from './catalog-publisher.ts';
import { INTERRUPTED_REASON, objectKeyOf } from './backup-records.ts';
import type { BackupDocument, BackupRecords, BackupTrigger } from './backup-records.ts';
import { isComplete } from './backup-settings.ts';
import type { BackupSettingsRepository, StoredSettings } from './backup-settings.ts';
import { DumpFailure } from './dump/failure.ts';
import { dumpToObject } from './dump/dump-to-object.ts';
import type { DumpLimits } from './dump/dump-to-object.ts';
import { maxBackupsOf } from './server-directory.ts';
import type { ServerDirectory } from './server-directory.ts';

export const NO_BACKUPS_IN_TIER = 'Your plan does not include database backups. Upgrade to enable them.';
export const SETTINGS_INCOMPLETE = 'Fill in the database host, user and name first';
export const ALREADY_RUNNING = 'A backup of this server is already running';
export const BACKUP_NOT_FOUND = 'Backup not found.';
export const BACKUP_STILL_RUNNING = 'This backup is still running';

/** Failed runs kept per server (their reasons help the owner); older ones are dropped. */
export const FAILED_RUNS_KEPT = 5;

export interface BackupRunsDeps {
  readonly directory: ServerDirectory;
  readonly settings: BackupSettingsRepository;
  readonly records: BackupRecords;
  readonly objects: ObjectStore;
  readonly outbound: OutboundGuard;
  /** Settings saved, backups created, downloaded, deleted; runs the schedule starts are the system's. Details never hold the password or the database user. */
  readonly audit: AuditPublisher;
  /** Announces the server's stored backups after each change (the admin area's counts and sizes). */
  readonly catalog: CatalogPublisher;
  readonly log: FastifyBaseLogger;
  readonly now: () => number;
  readonly limits: DumpLimits;
  /** How often a running backup renews its lock. */
  readonly heartbeatMs: number;
}

export interface BackupRuns {
  /** POST create: starts a run now (in the background); refusals are HttpErrors. */
  create(serverId: string, actorId: string): Promise<BackupCreated>;
  /** A scheduled run: waits for it; quietly does nothing when backups are off, incomplete, not in the tier or running. */
  runScheduled(serverId: string): Promise<void>;
  remove(serverId: string, backupId: string, actorId: string): Promise<void>;
  /** Interrupts the runs in progress and waits until each is recorded. */
  stop(): Promise<void>;
}

export function createBackupRuns(deps: BackupRunsDeps): BackupRuns {
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();

  /**
   * Removes finished backups past the tier's maxBackups (oldest first), `reserved` places being held for a
   * run about to be marked done, and failed runs past FAILED_RUNS_KEPT. A run already stored is never
   * removed by its own rotation, even if the tier dropped to 0 while it ran.
   */
  async function rotate(serverId: string, reserved: number): Promise<boolean> {
    const keep = Math.max((await maxBackupsOf(deps.directory, serverId)) - reserved, 0);
    const all = await deps.records.list(serverId);
    const done = all.filter((b) => b.status === 'done');
    const failed = all.filter((b) => b.status === 'failed');
    const expired = [...done.slice(keep), ...failed.slice(FAILED_RUNS_KEPT)];
    if (expired.length === 0) return false;
    // Objects first: a record without its object would offer a download that 404s.
    await deps.objects.delete(expired.flatMap((b) => (b.objectKey ? [b.objectKey] : [])));
    await deps.records.remove(expired.map((b) => b._id));
    return expired.some((b) => b.status === 'done');
  }

  async function execute(record: BackupDocument, settings: StoredSettings, controller: AbortController): Promise<void> {
    const { serverId } = record;
    const heartbeat = setInterval(() => void deps.records.heartbeat(serverId, record._id).catch(() => undefined), deps.heartbeatMs);
    try {
      const result = await dumpToObject(
        deps,
        { host: settings.host, port: settings.port, user: settings.user, password: deps.settings.passwordOf(serverId, settings), database: settings.database },
        objectKeyOf(record._id),
        deps.limits,
        { now: deps.now, signal: controller.signal, interruptedReason: INTERRUPTED_REASON },
      );
      // Older backups go before this one shows as done, so a finished run never lists more than maxBackups.
      await rotate(serverId, 1);
      await deps.records.finish(serverId, record._id, { status: 'done', size: result.size, storedSize: result.storedSize });
      deps.log.info({ serverId, backupId: record._id, size: result.size, storedSize: result.storedSize }, 'backups: backup stored');
      await deps.catalog.publish(serverId);
    } catch (error) {
      const reason = error instanceof DumpFailure ? error.message : 'The backup failed because of an internal error';
      if (!(error instanceof DumpFailure)) deps.log.error({ err: error, serverId, backupId: record._id }, 'backups: run failed');
      else deps.log.warn({ serverId, backupId: record._id, reason }, 'backups: run failed');
      await deps.records.finish(serverId, record._id, { status: 'failed', error: reason });
      // A lowered tier may have rotated finished backups out here too.
      if (await rotate(serverId, 0).catch(() => false)) await deps.catalog.publish(serverId);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Checks, locks and records a run; null (scheduled) or an HttpError (manual) when it may not start. */
  async function begin(serverId: string, trigger: BackupTrigger): Promise<{ record: BackupDocument; settings: StoredSettings } | null> {
    const refuse = (status: number, text: string) => {
      if (trigger === 'manual') throw new HttpError(status, text);
      return null;
    };
    if ((await maxBackupsOf(deps.directory, serverId)) === 0) return refuse(403, NO_BACKUPS_IN_TIER);
    const settings = await deps.settings.get(serverId);
    if (!isComplete(settings)) return refuse(400, SETTINGS_INCOMPLETE);
    if (trigger === 'scheduled' && !settings.enabled) return null;
    const record = await deps.records.begin(serverId, randomUUID(), trigger);
    if (!record) return refuse(409, ALREADY_RUNNING);
    return { record, settings };
  }

  function launch(record: BackupDocument, settings: StoredSettings): Promise<void> {
    const controller = new AbortController();
    const done = execute(record, settings, controller)
      // Recording the outcome failed too (the store is gone): the heartbeat stops, so the run reads as interrupted.
      .catch((error: unknown) => deps.log.error({ err: error, serverId: record.serverId, backupId: record._id }, 'backups: could not record the outcome of a run'))
      .finally(() => running.delete(record._id));
    running.set(record._id, { controller, done });
    return done;
  }

  return {
    async create(serverId, actorId) {
      const started = await begin(serverId, 'manual');
      if (!started) throw new HttpError(409, ALREADY_RUNNING);
      await deps.audit.publish({ actorId, serverId, action: 'backup.created', details: { backupId: started.record._id, trigger: 'manual' } });
      void launch(started.record, started.settings);
      return { id: started.record._id, status: 'running' };
    },
    async runScheduled(serverId) {
      const started = await begin(serverId, 'scheduled');
      if (!started) return;
      await deps.audit.publish({ actorId: SYSTEM_ACTOR, serverId, action: 'backup.created', details: { backupId: started.record._id, trigger: 'scheduled' } });
      await launch(started.record, started.settings);
    },
    async remove(serverId, backupId, actorId) {
      const backup = await deps.records.find(serverId, backupId);
      if (!backup) throw new HttpError(404, BACKUP_NOT_FOUND);
      if (backup.status === 'running') throw new HttpError(409, BACKUP_STILL_RUNNING);
      if (backup.objectKey) await deps.objects.delete([backup.objectKey]);
      await deps.records.remove([backupId]);
      await deps.catalog.publish(serverId);
      await deps.audit.publish({ actorId, serverId, action: 'backup.deleted', details: { backupId } });
    },
    async stop() {
      for (const run of running.values()) run.controller.abort();
      await Promise.allSettled([...running.values()].map((run) => run.done));
    },
  };
}
