/** The one dependency bag every logs route file receives (built by logs-service.ts). */
import type { FastifyBaseLogger } from 'fastify';
import type { Counters, LogStore, ObjectStore, PlayerStore } from '@skald/ports';
import type { AuditPublisher } from '@skald/service-kit';
import type { Cases } from '../domain/cases/cases.ts';
import type { AuditCopy } from '../domain/exports/audit-copy.ts';
import type { ExportLimit } from '../domain/exports/export-limit.ts';
import type { ImageUrlSigner } from '../domain/image-url.ts';
import type { LevelColorsRepository } from '../domain/level-colors.ts';
import type { PlayerRecorder } from '../domain/players/player-recorder.ts';
import type { SavedSearches } from '../domain/saved-searches.ts';
import type { ServerCounts } from '../domain/server-counts.ts';
import type { ServerDirectory } from '../domain/server-directory.ts';
import type { LiveTails } from '../domain/tail/live-tails.ts';

export interface LogsRouteDeps {
  /** Members' roles (the routes' requireServerRole guards) and servers' tier and suspension. */
  readonly directory: ServerDirectory;
  readonly logStore: LogStore;
  readonly objects: ObjectStore;
  readonly counters: Counters;
  readonly colors: LevelColorsRepository;
  readonly signer: ImageUrlSigner;
  readonly log: FastifyBaseLogger;
  readonly now: () => number;
  /** Audit entries of this service's changes (colours saved, logs deleted, export made). */
  readonly audit: AuditPublisher;
  /** The audit entries exports read (this service's copy, fed by the audit topic). */
  readonly auditCopy: AuditCopy;
  /** The monthly export count. */
  readonly exportLimit: ExportLimit;
  /** Open live tails, their bounds and the feed they listen to (GET /logs/tail). */
  readonly tails: LiveTails;
  /** Marks a server whose stored logs changed (its next logs.server-counts fact). */
  readonly counts: Pick<ServerCounts, 'mark'>;
  /** The players the logs name (docs/PLAYERS.md). */
  readonly players: PlayerStore;
  /** Records queued logs' players; the player view catches it up before it answers. */
  readonly recorder: Pick<PlayerRecorder, 'catchUp'>;
  /** Named filters of /logs shared by a server's members. */
  readonly savedSearches: SavedSearches;
  /** Evidence cases: chosen logs and their context copied, photos included (docs/CASES.md). */
  readonly cases: Cases;
}
