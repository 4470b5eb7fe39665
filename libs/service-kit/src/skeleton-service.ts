/**
 * A service with no features yet (webhooks, backups, billing, admin: later issues). It plugs into
 * the launcher like any other (readiness, start/stop) and registers NO routes: their paths answer
 * 404 until the feature lands, rather than pretending to work.
 */
import type { ServiceDeps, ServiceModule, ServiceName } from './service-module.ts';

export function createSkeletonService(name: ServiceName, deps: ServiceDeps): ServiceModule {
  let running = false;
  return {
    name,
    async routes() {
      // Intentionally empty: see the module comment.
    },
    async start() {
      running = true;
      deps.log.debug({ service: name }, 'skeleton service started (no features yet)');
    },
    async stop() {
      running = false;
    },
    async ready() {
      return running;
    },
  };
}
