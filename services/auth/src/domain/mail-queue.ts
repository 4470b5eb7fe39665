/** Mail sent without making the request wait, so known and unknown addresses answer in the same time. */
import type { FastifyBaseLogger } from 'fastify';
import type { Mail, Mailer } from '@skald/ports';

export interface MailQueue {
  send(mail: Mail): void;
  /** Resolves once queued mail has been handed to the mailer (tests, shutdown). */
  flush(): Promise<void>;
}

export function createMailQueue(mailer: Mailer, log: FastifyBaseLogger): MailQueue {
  const pending = new Set<Promise<void>>();
  return {
    send(mail) {
      const task = mailer
        .send(mail)
        // The raw error: the logger's err serializer writes its message and stack, redacted (a string here lost the stack).
        .catch((error: unknown) => log.error({ err: error }, 'sending mail failed'))
        .finally(() => pending.delete(task));
      pending.add(task);
    },
    async flush() {
      await Promise.all([...pending]);
    },
  };
}
