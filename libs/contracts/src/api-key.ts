/**
 * The API-key hash: the auth service stores and publishes it (`apikey.rotated.keyHash`), ingestion looks
 * keys up by it. Writer and reader must agree, so the rule lives once, next to the event schema that
 * carries it. Keys carry 256 bits of randomness, so a fast unsalted SHA-256 is safe (nothing to brute
 * force) and lets ingestion find a key by its hash.
 */
import { createHash } from 'node:crypto';

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
