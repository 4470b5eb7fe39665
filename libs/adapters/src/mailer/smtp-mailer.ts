/** SMTP delivery through nodemailer; the URL (smtp[s]://user:pass@host:port) carries the credentials. */
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { Mail, Mailer } from '@skald/ports';
import { assertSendableMail } from './mail-validation.ts';

export interface SmtpMailerOptions {
  readonly url: string;
  readonly from: string;
}

export class SmtpMailer implements Mailer {
  readonly #transport: Transporter;
  readonly #from: string;

  constructor(options: SmtpMailerOptions) {
    this.#transport = nodemailer.createTransport(options.url);
    this.#from = options.from;
  }

  async send(mail: Mail): Promise<void> {
    assertSendableMail(mail);
    try {
      await this.#transport.sendMail({
        from: this.#from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html === undefined ? {} : { html: mail.html }),
      });
    } catch (error) {
      // nodemailer errors can echo the SMTP dialogue; keep only code and server response line.
      const detail = error instanceof Error ? (error as Error & { code?: string; responseCode?: number }) : undefined;
      throw new Error(`SMTP send failed${detail?.code ? ` (${detail.code}${detail.responseCode ? ` ${detail.responseCode}` : ''})` : ''}`, { cause: error });
    }
  }

  async close(): Promise<void> {
    this.#transport.close();
  }
}
