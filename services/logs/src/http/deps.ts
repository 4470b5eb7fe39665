/** The one dependency bag every logs route file receives (built by logs-service.ts). */
import type { FastifyBaseLogger } from 'fastify';
import type { Counters, LogStore, ObjectStore } from '@skald/ports';
import type { ImageUrlSigner } from '../domain/image-url.ts';
import type { LevelColorsRepository } from '../domain/level-colors.ts';
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
  /** Open live tails, their bounds and the feed they listen to (GET /logs/tail). */
  readonly tails: LiveTails;
}
