import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digestsEqual, generateApiKey, sha256Hex } from '../src/opaque-tokens.ts';
import { OWASP_SCRYPT_COST, hashPassword, verifyPassword } from '../src/passwords.ts';
import { createSecretBox } from '../src/secret-box.ts';

describe('passwords', () => {
  it('hashes with the OWASP scrypt parameters by default and verifies only the right password', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored.startsWith(`scrypt$${OWASP_SCRYPT_COST.logN}$8$1$`)).toBe(true);
    expect(stored).not.toContain('correct horse battery');
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
  });

  it('salts (two hashes of one password differ) and refuses malformed stored values', async () => {
    const cost = { logN: 10, r: 8, p: 1 };
    expect(await hashPassword('pw-123456', cost)).not.toBe(await hashPassword('pw-123456', cost));
    expect(await verifyPassword('x', 'plaintext')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$40$8$1$AAAA$AAAA')).toBe(false);
  });
});

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
    const parts = sealed.split('.');
    const tampered = [...parts.slice(0, 3), Buffer.from('x' + Buffer.from(parts[3]!, 'base64url').toString('latin1').slice(1), 'latin1').toString('base64url')].join('.');
    expect(() => box.open(tampered, 'totp:u1')).toThrow();
    expect(() => createSecretBox(randomBytes(32).toString('base64')).open(sealed, 'totp:u1')).toThrow();
    expect(() => createSecretBox(randomBytes(16).toString('base64'))).toThrow();
  });
});

describe('API keys', () => {
  it('carry 256 bits of randomness and are compared by hash in constant time', () => {
    const key = generateApiKey();
    expect(Buffer.from(key.slice(3), 'base64url')).toHaveLength(32);
    expect(generateApiKey()).not.toBe(key);
    expect(sha256Hex(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(digestsEqual(sha256Hex(key), sha256Hex(key))).toBe(true);
    expect(digestsEqual(sha256Hex(key), sha256Hex(`${key}x`))).toBe(false);
    expect(digestsEqual('', '')).toBe(false);
  });
});
