/**
 * Mounts a service's routes on an encapsulated scope and, for every route it registers:
 *  - asserts the route table gives that route to this service (startup fails on drift);
 *  - applies the table's body limit unless the route set its own.
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceModule } from '@skald/service-kit';
import { assertRouteOwned, bodyLimitFor } from './route-table.ts';

export interface MountOptions {
  /** '/api' in all-in-one; '' for a single service process. */
  readonly prefix: string;
  readonly defaultBodyLimit: number;
}

export async function mountService(app: FastifyInstance, module: ServiceModule, options: MountOptions): Promise<void> {
  await app.register(
    async (scope) => {
      scope.addHook('onRoute', (route) => {
        const path = options.prefix && route.url.startsWith(options.prefix) ? route.url.slice(options.prefix.length) || '/' : route.url;
        const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
        assertRouteOwned(module.name, methods, path);
        if (route.bodyLimit === undefined) route.bodyLimit = bodyLimitFor(methods[0] ?? 'GET', path, options.defaultBodyLimit);
      });
      await module.routes(scope);
    },
    { prefix: options.prefix },
  );
}
