/**
 * JWT key pair and the secrets key. All-in-one generates them on first start under
 * DATA_DIR/keys (files 0600, folder 0700) and reuses them afterwards, so tokens and encrypted
 * secrets survive restarts. Distributed processes read them from files/env instead.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyMaterial } from './service-module.ts';

export interface LoadedKeys {
  readonly keys: KeyMaterial;
  /** Base64 32-byte key for encrypting secrets at rest. */
  readonly secretsKey: string;
}

export interface KeyIdentity {
  readonly issuer: string;
  readonly audience: string;
}

function writeSecretFile(file: string, content: string): void {
  // 'wx' never overwrites: two processes racing on first start cannot clobber each other's key.
  writeFileSync(file, content, { mode: 0o600, flag: 'wx' });
}

export function loadOrCreateKeys(dataDir: string, identity: KeyIdentity = { issuer: 'skald', audience: 'skald-api' }): LoadedKeys {
  const dir = join(dataDir, 'keys');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const privateFile = join(dir, 'jwt-private.pem');
  const publicFile = join(dir, 'jwt-public.pem');
  const secretsFile = join(dir, 'secrets.key');
  if (!existsSync(privateFile) || !existsSync(publicFile)) {
    const pair = generateKeyPairSync('ed25519', {
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    writeSecretFile(privateFile, pair.privateKey);
    writeSecretFile(publicFile, pair.publicKey);
  }
  if (!existsSync(secretsFile)) writeSecretFile(secretsFile, randomBytes(32).toString('base64'));
  return {
    keys: {
      privateKeyPem: readFileSync(privateFile, 'utf8'),
      publicKeyPem: readFileSync(publicFile, 'utf8'),
      issuer: identity.issuer,
      audience: identity.audience,
    },
    secretsKey: readFileSync(secretsFile, 'utf8').trim(),
  };
}

/** Distributed mode: keys from files named in the config (the private key only for the auth service). */
export function loadKeysFromFiles(
  files: { readonly publicKeyFile: string; readonly privateKeyFile?: string },
  identity: KeyIdentity,
): KeyMaterial {
  return {
    publicKeyPem: readFileSync(files.publicKeyFile, 'utf8'),
    ...(files.privateKeyFile ? { privateKeyPem: readFileSync(files.privateKeyFile, 'utf8') } : {}),
    issuer: identity.issuer,
    audience: identity.audience,
  };
}
