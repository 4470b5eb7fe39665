import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { describe, expect, it } from 'vitest';
import { mailerContract } from '@skald/ports/contract/mailer.contract.ts';
import type { DeliveredMail } from '@skald/ports/contract/mailer.contract.ts';
import { createMailer } from '../src/mailer/index.ts';

const SMTP_USER = 'skald-test';
const SMTP_PASS = 'p@ss:word/with?chars';

/** A real SMTP server on a random loopback port that requires the URL's credentials. */
async function startSmtpServer(): Promise<{ port: number; inbox: DeliveredMail[]; close(): Promise<void> }> {
  const inbox: DeliveredMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASS) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        inbox.push({ raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, inbox, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const smtpUrl = (port: number, password = SMTP_PASS): string =>
  `smtp://${encodeURIComponent(SMTP_USER)}:${encodeURIComponent(password)}@127.0.0.1:${port}`;

mailerContract('smtp', async () => {
  const server = await startSmtpServer();
  const adapter = await createMailer({ kind: 'smtp', url: smtpUrl(server.port), from: 'Skald <noreply@skald.test>' });
  return {
    adapter,
    delivered: async () => [...server.inbox],
    cleanup: async () => {
      await adapter.close();
      await server.close();
    },
  };
});

mailerContract('outbox', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'skald-outbox-'));
  const adapter = await createMailer({ kind: 'outbox', dir, from: 'noreply@skald.test', publishLine: () => {} });
  return {
    adapter,
    delivered: async () => readOutbox(dir),
    cleanup: async () => {
      await adapter.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

async function readOutbox(dir: string): Promise<DeliveredMail[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.eml'));
  return Promise.all(names.map(async (name) => ({ raw: await readFile(join(dir, name), 'utf8') })));
}

describe('SMTP mailer specifics', () => {
  it('fails with an error that does not contain the password when credentials are wrong', async () => {
    const server = await startSmtpServer();
    const adapter = await createMailer({ kind: 'smtp', url: smtpUrl(server.port, 'wrong-secret-123'), from: 'noreply@skald.test' });
    try {
      const error: unknown = await adapter.send({ to: 'a@example.com', subject: 's', text: 't' }).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/SMTP send failed/);
      expect((error as Error).message).not.toContain('wrong-secret-123');
      expect(server.inbox).toHaveLength(0);
    } finally {
      await adapter.close();
      await server.close();
    }
  });
});

describe('Outbox mailer specifics', () => {
  it('writes one 0600 file per mail, named by time and random id, with the body verbatim', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skald-outbox-'));
    const lines: string[] = [];
    const mailer = await createMailer({ kind: 'outbox', dir: join(dir, 'mail'), from: 'noreply@skald.test', publishLine: (line) => lines.push(line) });
    try {
      const link = 'https://skald.example/reset?token=s3cr3t-t0ken&x=1';
      await mailer.send({ to: 'ada@example.com', subject: 'Réinitialiser — reset', text: `Bonjour ✓\n${link}` });
      await mailer.send({ to: 'ada@example.com', subject: 'second', text: 'two' });
      const names = await readdir(join(dir, 'mail'));
      expect(names).toHaveLength(2);
      for (const name of names) expect(name).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[0-9a-f]{16}\.eml$/);
      const first = (await readOutbox(join(dir, 'mail'))).find((m) => m.raw.includes('Réinitialiser'))!;
      expect(first.raw).toContain(link);
      expect(first.raw).toContain('Bonjour ✓');
      const fileMode = (await stat(join(dir, 'mail', names[0]!))).mode & 0o777;
      expect(fileMode).toBe(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('publishes a log line naming file, recipient and subject but never the body', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skald-outbox-'));
    const lines: string[] = [];
    const mailer = await createMailer({ kind: 'outbox', dir, from: 'noreply@skald.test', publishLine: (line) => lines.push(line) });
    try {
      await mailer.send({ to: 'ada@example.com', subject: 'Reset your password', text: 'https://skald.example/reset?token=SECRET-TOKEN-42', html: '<a href="https://skald.example/reset?token=SECRET-TOKEN-42">x</a>' });
      expect(lines).toHaveLength(1);
      const [name] = await readdir(dir);
      expect(lines[0]).toContain(join(dir, name!));
      expect(lines[0]).toContain('ada@example.com');
      expect(lines[0]).toContain('Reset your password');
      expect(lines[0]).not.toContain('SECRET-TOKEN-42');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('leaves no temporary or partial file behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skald-outbox-'));
    const mailer = await createMailer({ kind: 'outbox', dir, from: 'noreply@skald.test', publishLine: () => {} });
    try {
      await Promise.all(Array.from({ length: 20 }, (_, i) => mailer.send({ to: 'a@example.com', subject: `s${i}`, text: 'x'.repeat(100_000) })));
      const names = await readdir(dir);
      expect(names).toHaveLength(20);
      expect(names.every((name) => name.endsWith('.eml') && !name.startsWith('.'))).toBe(true);
      for (const mail of await readOutbox(dir)) expect(mail.raw.endsWith(`${'x'.repeat(100_000)}\r\n`)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
