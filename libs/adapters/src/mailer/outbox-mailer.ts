/**
 * Local outbox: one RFC 822 file per mail under the data folder. A fresh install without
 * SMTP reaches password-reset links through these files, so the body (a secret) goes only
 * to the file (mode 0600), never to the log line, which names file, recipient and subject.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Mail, Mailer } from '@skald/ports';
import { assertSendableMail } from './mail-validation.ts';

export interface OutboxMailerOptions {
  readonly dir: string;
  readonly from: string;
  /** Receives one line per mail; defaults to stdout. */
  readonly publishLine?: (line: string) => void;
}

export class OutboxMailer implements Mailer {
  readonly #dir: string;
  readonly #from: string;
  readonly #publishLine: (line: string) => void;

  constructor(options: OutboxMailerOptions) {
    this.#dir = options.dir;
    this.#from = options.from;
    this.#publishLine = options.publishLine ?? ((line) => process.stdout.write(`${line}\n`));
  }

  async send(mail: Mail): Promise<void> {
    assertSendableMail(mail);
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    const id = randomBytes(8).toString('hex');
    const now = new Date();
    const name = `${now.toISOString().replace(/[:.]/g, '-')}-${id}.eml`;
    const finalPath = join(this.#dir, name);
    // Dot-prefixed temp name in the same folder: rename is atomic, and readers listing
    // *.eml never see a half-written mail.
    const tempPath = join(this.#dir, `.${name}.tmp`);
    const handle = await open(tempPath, 'wx', 0o600);
    try {
      await handle.writeFile(renderMessage(mail, this.#from, id, now), 'utf8');
      await handle.sync();
    } catch (error) {
      await handle.close();
      await rm(tempPath, { force: true });
      throw error;
    }
    await handle.close();
    await rename(tempPath, finalPath);
    this.#publishLine(`mail written to outbox: file=${finalPath} to=${mail.to} subject=${JSON.stringify(mail.subject)}`);
  }

  async close(): Promise<void> {}
}

/** Plain 8-bit UTF-8 MIME so a person can read links verbatim (no quoted-printable `=3D`). */
export function renderMessage(mail: Mail, from: string, id: string, date: Date): string {
  const headers = [
    `From: ${from}`,
    `To: ${mail.to}`,
    `Subject: ${mail.subject}`,
    `Date: ${date.toUTCString()}`,
    `Message-ID: <${id}@skald.outbox>`,
    'MIME-Version: 1.0',
  ];
  const text = normaliseLineEnds(mail.text);
  if (mail.html === undefined) {
    return [...headers, 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 8bit', '', text, ''].join('\r\n');
  }
  const boundary = `skald-${id}`;
  return [
    ...headers,
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    text,
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    normaliseLineEnds(mail.html),
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

function normaliseLineEnds(body: string): string {
  return body.replace(/\r?\n/g, '\r\n');
}
