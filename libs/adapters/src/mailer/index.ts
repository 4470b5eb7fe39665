/** Mailer factory. nodemailer is imported only when SMTP is chosen, so the outbox processes never load it. */
import type { Mailer } from '@skald/ports';
import { OutboxMailer } from './outbox-mailer.ts';

export type MailerConfig =
  | { kind: 'outbox'; dir: string; from: string; publishLine?: (line: string) => void }
  | { kind: 'smtp'; url: string; from: string };

export async function createMailer(config: MailerConfig): Promise<Mailer> {
  switch (config.kind) {
    case 'outbox':
      return new OutboxMailer(config);
    case 'smtp': {
      const { SmtpMailer } = await import('./smtp-mailer.ts');
      return new SmtpMailer(config);
    }
  }
}

export { OutboxMailer };
// Type only: a value re-export would load nodemailer for every importer of @skald/adapters.
export type { SmtpMailer } from './smtp-mailer.ts';
