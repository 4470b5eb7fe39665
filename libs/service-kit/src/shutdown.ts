/**
 * Graceful shutdown on SIGTERM/SIGINT: stop accepting connections and let in-flight requests finish
 * (app.close), then stop service modules (consumers commit what they finished), then close adapters.
 * If that takes longer than timeoutMs the process exits hard with code 1.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

export interface ShutdownPlan {
  readonly app?: FastifyInstance;
  /** Stopped in order after the HTTP server closed: service modules first, then adapters. */
  readonly steps: readonly { readonly name: string; readonly run: () => Promise<void> }[];
  readonly timeoutMs: number;
  readonly log: FastifyBaseLogger;
  readonly exit?: (code: number) => void;
}

export async function shutdown(plan: ShutdownPlan): Promise<boolean> {
  let clean = true;
  if (plan.app) {
    try {
      await plan.app.close();
    } catch (error) {
      clean = false;
      plan.log.error({ err: error }, 'closing the HTTP server failed');
    }
  }
  for (const step of plan.steps) {
    try {
      await step.run();
    } catch (error) {
      clean = false;
      plan.log.error({ err: error, step: step.name }, 'shutdown step failed');
    }
  }
  return clean;
}

/** Installs the signal handlers once; returns a function that triggers the same shutdown (tests). */
export function installGracefulShutdown(plan: ShutdownPlan): () => Promise<void> {
  const exit = plan.exit ?? ((code: number) => process.exit(code));
  let running: Promise<void> | undefined;
  const trigger = (): Promise<void> => {
    running ??= (async () => {
      const timer = setTimeout(() => {
        plan.log.error({ timeoutMs: plan.timeoutMs }, 'graceful shutdown timed out; exiting');
        exit(1);
      }, plan.timeoutMs);
      timer.unref();
      const clean = await shutdown(plan);
      clearTimeout(timer);
      exit(clean ? 0 : 1);
    })();
    return running;
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      plan.log.info({ signal }, 'shutting down');
      void trigger();
    });
  }
  return trigger;
}
