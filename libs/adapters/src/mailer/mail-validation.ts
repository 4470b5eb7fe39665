import type { Mail } from '@skald/ports';

// Deliberately simple: one address, no display name, no CR/LF anywhere (header injection).
const ADDRESS = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

/** Rejects mails whose header fields could inject extra headers or recipients. */
export function assertSendableMail(mail: Mail): void {
  if (!ADDRESS.test(mail.to)) throw new Error('invalid recipient address');
  if (/[\r\n]/.test(mail.subject)) throw new Error('mail subject must be a single line');
  if (mail.subject.length > 998) throw new Error('mail subject is too long');
}
