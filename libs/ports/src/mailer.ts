/** Mailer port. Adapters: SMTP (nodemailer) and a local outbox (one file per mail under the data folder). */

export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): Promise<void>;
}
