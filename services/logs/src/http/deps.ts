import type { FastifyBaseLogger } from 'fastify';
import type { Counters, LogStore, ObjectStore } from '@skald/ports';
import type { ImageUrlSigner } from '../domain/image-url.ts';
import type { LevelColorsRepository } from '../domain/level-colors.ts';
import type { AccessDeps } from './access.ts';

export interface LogsRouteDeps extends AccessDeps {
  readonly logStore: LogStore;
  readonly objects: ObjectStore;
  readonly counters: Counters;
  readonly colors: LevelColorsRepository;
  readonly signer: ImageUrlSigner;
  readonly log: FastifyBaseLogger;
  readonly now: () => number;
}
