/** Liveness (/health: the process answers) and readiness (/ready: its modules can serve). */
import type { FastifyInstance } from 'fastify';
import type { ServiceModule } from './service-module.ts';
import { sendError } from './errors.ts';

/** Readiness that never throws: a module whose ready() throws or hangs is simply not ready. */
export async function isReady(module: Pick<ServiceModule, 'ready'>, timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      module.ready(),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export function registerHealthRoutes(app: FastifyInstance, modules: readonly ServiceModule[]): void {
  app.get('/health', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/ready', { logLevel: 'warn' }, async (_request, reply) => {
    const states = await Promise.all(modules.map(async (m) => [m.name, await isReady(m)] as const));
    const services = Object.fromEntries(states.map(([name, ok]) => [name, ok ? 'ok' : 'not ready']));
    if (states.every(([, ok]) => ok)) return { status: 'ready', services };
    return sendError(reply, 503, 'Service not ready', JSON.stringify(services));
  });
}
