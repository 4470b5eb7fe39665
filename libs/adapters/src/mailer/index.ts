import type { Mailer } from '@skald/ports';
import { OutboxMailer } from './outbox-mailer.ts';
import { SmtpMailer } from './smtp-mailer.ts';

export type MailerConfig =
  | { kind: 'outbox'; dir: string; from: string; publishLine?: (line: string) => void }
  | { kind: 'smtp'; url: string; from: string };

export async function createMailer(config: MailerConfig): Promise<Mailer> {
  switch (config.kind) {
    case 'outbox':
      return new OutboxMailer(config);
    case 'smtp':
      return new SmtpMailer(config);
  }
}

export { OutboxMailer, SmtpMailer };
