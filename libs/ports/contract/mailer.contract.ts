/**
 * Behaviour every Mailer adapter must show. The harness exposes what actually arrived
 * (an SMTP server's inbox, the outbox folder) as raw RFC 822 text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from '../src/mailer.ts';

export interface DeliveredMail {
  readonly raw: string;
}

export interface MailerHarness {
  readonly adapter: Mailer;
  /** Every mail delivered so far, in any order. */
  delivered(): Promise<DeliveredMail[]>;
  cleanup(): Promise<void>;
}

export function mailerContract(name: string, makeAdapter: () => Promise<MailerHarness>): void {
  describe(`Mailer contract: ${name}`, () => {
    let harness: MailerHarness;

    beforeAll(async () => {
      harness = await makeAdapter();
    });
    afterAll(async () => {
      await harness.cleanup();
    });

    const find = async (marker: string): Promise<DeliveredMail[]> =>
      (await harness.delivered()).filter((mail) => mail.raw.includes(marker));

    it('delivers recipient, subject and the text body verbatim', async () => {
      const marker = `m${Date.now()}a`;
      const link = `https://skald.example/reset?token=${marker}`;
      await harness.adapter.send({ to: 'ada@example.com', subject: `Reset ${marker}`, text: `Hello\nOpen ${link}\n` });
      const [mail, ...rest] = await find(marker);
      expect(rest).toHaveLength(0);
      expect(mail!.raw).toMatch(/^To: ada@example\.com\r?$/m);
      expect(mail!.raw).toMatch(new RegExp(`^Subject: Reset ${marker}\\r?$`, 'm'));
      expect(mail!.raw).toContain(link);
      expect(mail!.raw).toMatch(/^From: .+$/m);
    });

    it('delivers an html alternative alongside the text', async () => {
      const marker = `m${Date.now()}b`;
      await harness.adapter.send({ to: 'bob@example.com', subject: marker, text: `plain ${marker}`, html: `<p>html ${marker}</p>` });
      const [mail] = await find(marker);
      expect(mail!.raw).toMatch(/multipart\/alternative/);
      expect(mail!.raw).toContain(`plain ${marker}`);
      expect(mail!.raw).toContain(`<p>html ${marker}</p>`);
    });

    it('delivers every mail of a parallel burst exactly once', async () => {
      const marker = `m${Date.now()}c`;
      await Promise.all(Array.from({ length: 8 }, (_, i) => harness.adapter.send({ to: `u${i}@example.com`, subject: `${marker}-${i}`, text: 'x' })));
      const mails = await find(marker);
      expect(mails).toHaveLength(8);
      for (let i = 0; i < 8; i++) expect(mails.filter((m) => m.raw.includes(`${marker}-${i}\r\n`) || m.raw.includes(`${marker}-${i}\n`))).toHaveLength(1);
    });

    it('refuses header injection through the subject or recipient', async () => {
      const marker = `m${Date.now()}d`;
      await expect(harness.adapter.send({ to: 'c@example.com', subject: `${marker}\r\nBcc: evil@example.com`, text: 'x' })).rejects.toThrow();
      await expect(harness.adapter.send({ to: `c@example.com\r\nBcc: evil@example.com`, subject: marker, text: 'x' })).rejects.toThrow();
      await expect(harness.adapter.send({ to: 'a@example.com, evil@example.com', subject: marker, text: 'x' })).rejects.toThrow();
      expect(await find(marker)).toHaveLength(0);
    });
  });
}
