/**
 * Password hashing with node:crypto scrypt at OWASP's recommended parameters
 * (N=2^17, r=8, p=1). Argon2id would need a native build, which fails on this platform.
 * The stored string carries its own parameters so the cost can be raised later without
 * breaking existing hashes: `scrypt$<logN>$<r>$<p>$<salt b64>$<hash b64>`.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptCost {
  readonly logN: number;
  readonly r: number;
  readonly p: number;
}

export const OWASP_SCRYPT_COST: ScryptCost = { logN: 17, r: 8, p: 1 };
/**
 * The cost of test servers and tests: N=2^17 costs about 0.8 s of CPU for every password hashed or checked
 * (each sign-up, each login, the dummy hash at start) on a machine that runs two test runs at once; N=2^10
 * about 4 ms. Never a production cost: a process only gets it with NODE_ENV=test (@skald/config).
 */
export const TEST_SCRYPT_COST: ScryptCost = { logN: 10, r: 8, p: 1 };

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const N = 2 ** cost.logN;
  // scrypt needs 128 * N * r bytes; the default maxmem (32 MiB) is too small for N=2^17.
  const maxmem = 128 * N * cost.r * 2;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N, r: cost.r, p: cost.p, maxmem }, (err, key) => {
      if (err) reject(err);
      else resolve(key);
    });
  });
}

export async function hashPassword(password: string, cost: ScryptCost = OWASP_SCRYPT_COST): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.logN, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const cost: ScryptCost = { logN: Number(parts[1]), r: Number(parts[2]), p: Number(parts[3]) };
  if (![cost.logN, cost.r, cost.p].every((n) => Number.isInteger(n) && n > 0) || cost.logN > 22) return false;
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const expected = Buffer.from(parts[5] ?? '', 'base64');
  const actual = await derive(password, salt, cost);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash of a random password, verified against when the username is unknown so that
 * a login for a missing account costs the same time as one for an existing account.
 */
export function makeDummyHash(cost: ScryptCost): Promise<string> {
  return hashPassword(randomBytes(16).toString('hex'), cost);
}
