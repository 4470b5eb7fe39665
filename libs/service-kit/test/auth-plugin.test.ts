import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { createHmac, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { authPlugin, createHttpApp, signAccessToken } from '../src/index.ts';
import type { AccessClaims, KeyMaterial } from '../src/index.ts';

function keyPair(): { publicKeyPem: string; privateKeyPem: string } {
  const pair = generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { publicKeyPem: pair.publicKey, privateKeyPem: pair.privateKey };
}

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

const keys: KeyMaterial = { ...keyPair(), issuer: 'skald', audience: 'skald-api' };
const revokedUsers = new Set<string>();
let app: FastifyInstance;

function payload(overrides: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return { sub: 'user-1', role: 'user', tv: 1, iat: now, exp: now + 600, iss: 'skald', aud: 'skald-api', jti: 'j1', ...overrides };
}

/** Signs an arbitrary header/payload with an Ed25519 key (for forged tokens). */
function edToken(body: Record<string, unknown>, privateKeyPem = keys.privateKeyPem!): string {
  const input = `${b64({ alg: 'EdDSA', typ: 'JWT' })}.${b64(body)}`;
  return `${input}.${sign(null, Buffer.from(input), createPrivateKey(privateKeyPem)).toString('base64url')}`;
}

async function call(token: string | null) {
  return app.inject({ method: 'GET', url: '/me', headers: token === null ? {} : { authorization: `Bearer ${token}` } });
}

beforeAll(async () => {
  app = createHttpApp({ logLevel: 'silent' });
  await app.register(async (scope) => {
    await scope.register(authPlugin, { keys, isRevoked: (claims: AccessClaims) => revokedUsers.has(claims.sub) });
    scope.get('/me', { onRequest: scope.authenticate }, async (request) => ({ sub: request.user.sub, role: request.user.role, tv: request.user.tv }));
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

describe('auth plugin', () => {
  it('accepts a token from signAccessToken and exposes the typed claims', async () => {
    const response = await call(signAccessToken(keys, { sub: 'user-1', role: 'admin', tv: 3 }, 900));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ sub: 'user-1', role: 'admin', tv: 3 });
  });

  it('401 without a token, in the JSON error shape', async () => {
    const response = await call(null);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'Authentication required.', message: 'Authentication required.' });
  });

  it('401 for alg none', async () => {
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload())}.`;
    expect((await call(token)).statusCode).toBe(401);
  });

  it('401 for HS256 signed with the public key as the secret (key confusion)', async () => {
    const input = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload())}`;
    const signature = createHmac('sha256', keys.publicKeyPem).update(input).digest('base64url');
    expect((await call(`${input}.${signature}`)).statusCode).toBe(401);
  });

  it('401 for an expired token', async () => {
    const past = Date.now() - 3_600_000;
    expect((await call(signAccessToken(keys, { sub: 'user-1', role: 'user', tv: 1 }, 60, past))).statusCode).toBe(401);
  });

  it('401 for a token older than maxAge even if exp is far away', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await call(edToken(payload({ iat: now - 30 * 24 * 3600, exp: now + 3600 })))).statusCode).toBe(401);
  });

  it('401 for a token without exp', async () => {
    const body: Record<string, unknown> = payload();
    delete body.exp;
    expect((await call(edToken(body))).statusCode).toBe(401);
  });

  it('401 for a wrong audience or issuer', async () => {
    expect((await call(edToken(payload({ aud: 'other-app' })))).statusCode).toBe(401);
    expect((await call(edToken(payload({ iss: 'someone-else' })))).statusCode).toBe(401);
    expect((await call(edToken(payload()))).statusCode).toBe(200);
  });

  it('401 for a token signed by another key (another environment)', async () => {
    expect((await call(edToken(payload(), keyPair().privateKeyPem))).statusCode).toBe(401);
  });

  it('401 for a token with a foreign claim shape', async () => {
    expect((await call(edToken(payload({ role: 'god' })))).statusCode).toBe(401);
  });

  it('401 once the user is revoked, checked on every request', async () => {
    const token = signAccessToken(keys, { sub: 'user-2', role: 'user', tv: 1 }, 900);
    expect((await call(token)).statusCode).toBe(200);
    revokedUsers.add('user-2');
    const response = await call(token);
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toMatch(/log in again/);
  });
});
