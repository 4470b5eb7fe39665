import type { Counters, ObjectStore } from '@skald/ports';
import type { KeyDirectory } from '../domain/key-directory.ts';
import type { CoalescingPublisher } from '../domain/coalescing-publisher.ts';

/** Everything the ingestion route files use, built once by the service factory. */
export interface IngestionRouteDeps {
  readonly directory: KeyDirectory;
  readonly counters: Counters;
  readonly objects: ObjectStore;
  readonly publisher: CoalescingPublisher;
  readonly now: () => number;
  /** The address users open (PUBLIC_URL): screenshot uploads answer a link to the photo log's page under it. */
  readonly publicUrl: string;
}
