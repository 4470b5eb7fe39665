import { describe, expect, it } from 'vitest';
import { hashApiKey } from '@skald/contracts';
import { OWASP_SCRYPT_COST, generateApiKey, hashPassword, verifyPassword } from '../src/testing.ts';

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

describe('API keys', () => {
  it('carry 256 bits of randomness and are stored as the hash ingestion looks them up by', () => {
    const key = generateApiKey();
    expect(Buffer.from(key.slice(3), 'base64url')).toHaveLength(32);
    expect(generateApiKey()).not.toBe(key);
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(hashApiKey(key)).not.toBe(hashApiKey(`${key}x`));
  });
});
