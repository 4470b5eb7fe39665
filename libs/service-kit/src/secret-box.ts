/**
 * AES-256-GCM encryption of small secrets at rest (TOTP seeds, backup database passwords, webhook
 * signing secrets), keyed by deps.secretsKey; in the service kit so every service seals the same way.
 * Format: `v1.<iv b64url>.<tag b64url>.<ciphertext b64url>`. The purpose string is bound as
 * additional authenticated data, so a ciphertext cannot be moved to another field.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface SecretBox {
  seal(plaintext: string, purpose: string): string;
  open(sealed: string, purpose: string): string;
}

export function createSecretBox(secretsKeyBase64: string): SecretBox {
  const key = Buffer.from(secretsKeyBase64, 'base64');
  if (key.length !== 32) throw new Error('secretsKey must be 32 bytes (base64)');
  return {
    seal(plaintext, purpose) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(purpose));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
    },
    open(sealed, purpose) {
      const [version, iv, tag, ciphertext] = sealed.split('.');
      if (version !== 'v1' || iv === undefined || tag === undefined || ciphertext === undefined) throw new Error('unreadable sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
