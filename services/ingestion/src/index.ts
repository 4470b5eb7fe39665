/**
 * Ingestion service: the public log API. Accepts logs and photo logs for a server's API key, enforces
 * the tier's hourly quota and publishes `logs.batch-accepted` events; the logs service stores them.
 * No call to another service on the hot path: keys, tiers and suspension come from KeyDirectory,
 * fed by identity events.
 */
import { TOPICS } from '@skald/contracts';
import type { Subscription } from '@skald/ports';
import { decodeIdentityMessage } from '@skald/service-kit';
import type { ServiceFactory, ServiceModule } from '@skald/service-kit';
import { CoalescingPublisher } from './coalescing-publisher.ts';
import { KeyDirectory } from './key-directory.ts';
import { registerIngestionRoutes } from './routes.ts';

export { KeyDirectory } from './key-directory.ts';
export { hashApiKey } from './api-key.ts';
export { uuidv7 } from './uuidv7.ts';

/** Consumer group of the API-key read model. */
export const IDENTITY_GROUP = 'ingestion.identity';
/** How often a replica re-reads key documents changed by other replicas. */
export const KEY_REFRESH_INTERVAL_MS = 2_000;

export const createIngestionService: ServiceFactory = async (deps) => {
  const directory = await KeyDirectory.open(deps.docs);
  const publisher = new CoalescingPublisher(deps.bus);
  let subscription: Subscription | null = null;
  let refreshTimer: NodeJS.Timeout | null = null;
  let loaded = false;

  const service: ServiceModule = {
    name: 'ingestion',
    async routes(app) {
      await registerIngestionRoutes(app, { directory, counters: deps.counters, objects: deps.objects, publisher });
    },
    async start() {
      await deps.bus.ensureTopics([TOPICS.identity, TOPICS.logsIngested]);
      await directory.load();
      loaded = true;
      subscription = await deps.bus.subscribe({
        group: IDENTITY_GROUP,
        topics: [TOPICS.identity],
        handler: async (message) => {
          // Throws PoisonMessageError for malformed identity events (dead-lettered); null = not ours.
          const event = decodeIdentityMessage(message);
          if (event !== null) await directory.apply(event);
        },
      });
      refreshTimer = setInterval(() => {
        directory.refresh().catch((error: unknown) => deps.log.warn({ err: error }, 'API-key read model refresh failed'));
      }, KEY_REFRESH_INTERVAL_MS);
      refreshTimer.unref();
    },
    async stop() {
      if (refreshTimer !== null) clearInterval(refreshTimer);
      refreshTimer = null;
      await subscription?.stop();
      subscription = null;
      await publisher.drain();
    },
    async ready() {
      return loaded && subscription !== null;
    },
  };
  return service;
};
