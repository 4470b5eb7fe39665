/**
 * Ingestion service: the public log API. Accepts logs and photo logs for a server's API key, enforces
 * the tier's hourly quota and publishes `logs.batch-accepted` events; the logs service stores them.
 * No call to another service on the hot path: keys, tiers and suspension come from KeyDirectory,
 * fed by identity events.
 */
import { TOPICS } from '@skald/contracts';
import type { Subscription } from '@skald/ports';
import type { ServiceFactory, ServiceModule } from '@skald/service-kit';
import { KeyDirectory } from './domain/key-directory.ts';
import { startReplicaRefresh } from './domain/replica-refresh.ts';
import type { ReplicaRefresh } from './domain/replica-refresh.ts';
import { CoalescingPublisher } from './domain/coalescing-publisher.ts';
import { startIdentityConsumer } from './events/identity-consumer.ts';
import { registerIngestionRoutes } from './http/routes.ts';

export const createIngestionService: ServiceFactory = async (deps) => {
  const directory = await KeyDirectory.open(deps.docs);
  const publisher = new CoalescingPublisher(deps.bus);
  let consumer: Subscription | null = null;
  let refresh: ReplicaRefresh | null = null;
  let loaded = false;

  const service: ServiceModule = {
    name: 'ingestion',
    async routes(app) {
      await registerIngestionRoutes(app, { directory, counters: deps.counters, objects: deps.objects, publisher, now: Date.now, publicUrl: deps.publicUrl });
    },
    async start() {
      await deps.bus.ensureTopics([TOPICS.identity, TOPICS.logsIngested]);
      // Persisted keys first, so a restart accepts logs without waiting for the identity history.
      await directory.load();
      loaded = true;
      consumer = await startIdentityConsumer(deps.bus, directory);
      refresh = startReplicaRefresh(directory, deps.log);
    },
    async stop() {
      refresh?.stop();
      refresh = null;
      await consumer?.stop();
      consumer = null;
      // Requests already accepted still get their durable publish before the bus closes.
      await publisher.drain();
    },
    async ready() {
      return loaded && consumer !== null;
    },
  };
  return service;
};
