/** The secret box seals small secrets at rest (TOTP seeds today; backup passwords and webhook secrets next). */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../src/secret-box.ts';

describe('secret box (TOTP seeds at rest)', () => {
  const box = createSecretBox(randomBytes(32).toString('base64'));

  it('round-trips and never contains the plaintext', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'totp:u1');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed, 'totp:u1')).toBe('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP', 'totp:u1')).not.toBe(sealed);
  });

  it('refuses a seed moved to another user, a tampered ciphertext and another key', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'totp:u1');
    expect(() => box.open(sealed, 'totp:u2')).toThrow();
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (ciphertext === undefined) throw new Error(`unexpected sealed format ${sealed}`);
    const bytes = Buffer.from(ciphertext, 'base64url');
    bytes[0] = (bytes[0] ?? 0) ^ 0xff;
    const tampered = [version, iv, tag, bytes.toString('base64url')].join('.');
    expect(() => box.open(tampered, 'totp:u1')).toThrow();
    expect(() => createSecretBox(randomBytes(32).toString('base64')).open(sealed, 'totp:u1')).toThrow();
    expect(() => createSecretBox(randomBytes(16).toString('base64'))).toThrow();
  });
});
