/**
 * Verifies the access tokens issued by the auth service and puts their claims on request.user.
 * Verify options are pinned (the @fastify/jwt defaults accept every algorithm and skip maxAge):
 *   algorithms: EdDSA only (so alg:none and HS256-with-the-public-key are refused),
 *   allowedIss / allowedAud from the key material, exp/iat/sub required, maxAge bounded.
 * Revocation: the injected isRevoked(claims) runs on EVERY request (no verify cache in front of it),
 * answering from the identity read model (token version, disabled accounts).
 *
 * Usage inside a service's routes():
 *   await app.register(authPlugin, { keys: deps.keys, isRevoked });
 *   app.get('/auth/me', { preHandler: app.authenticate }, async (request) => request.user.sub);
 * Both hooks are guards (guards.ts): declared in preHandler, they run at preValidation, before the schema.
 */
import fastifyJwt from '@fastify/jwt';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS_TOKEN_ALGORITHM, toAccessClaims } from './auth-claims.ts';
import type { AccessClaims } from './auth-claims.ts';
import { sendError } from './errors.ts';
import { guard } from './guards.ts';
import type { KeyMaterial } from './service-module.ts';

export interface AuthPluginOptions {
  readonly keys: KeyMaterial;
  /** True when the token must no longer be accepted (token version bumped, account disabled, ...). */
  readonly isRevoked: (claims: AccessClaims) => boolean | Promise<boolean>;
  /** Upper bound on a token's age counted from iat, whatever its exp says. Default 7 days. */
  readonly maxAgeSeconds?: number;
  /**
   * How long after its expiry a token may still be exchanged for a new one on a route guarded by
   * `authenticateForRenewal` (the auth service's /auth/refresh): a tab that slept past the hour
   * resumes its session instead of landing on /login. Revocation, signature and max age still apply.
   * Default 24 hours.
   */
  readonly renewalGraceSeconds?: number;
}

/** Resolves with the reply once it answered 401 (Fastify then skips the handler), else with nothing. */
export type AuthenticateHook = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Guard (onRequest, or preHandler, which runs it before validation): 401 unless a valid, unrevoked access token is presented. */
    authenticate: AuthenticateHook;
    /** authenticate, but a token expired less than renewalGraceSeconds ago passes (token renewal only). */
    authenticateForRenewal: AuthenticateHook;
  }
}

export const AUTH_REQUIRED_MESSAGE = 'Authentication required.';
export const AUTH_INVALID_MESSAGE = 'Your session has expired or is invalid. Please log in again.';

export const authPlugin = fp<AuthPluginOptions>(
  async (app, options) => {
    await app.register(fastifyJwt, {
      secret: { public: options.keys.publicKeyPem },
      verify: {
        algorithms: [ACCESS_TOKEN_ALGORITHM],
        allowedIss: options.keys.issuer,
        allowedAud: options.keys.audience,
        maxAge: options.maxAgeSeconds ?? 7 * 24 * 3600,
        requiredClaims: ['exp', 'iat', 'sub', 'iss', 'aud'],
        cache: false,
      },
      trusted: async (_request, decoded) => {
        const claims = toAccessClaims(decoded);
        if (!claims) return false;
        return !(await options.isRevoked(claims));
      },
      formatUser: (payload) => toAccessClaims(payload) ?? payload,
    });

    // Declared once so every request object has the same shape; requireServerRole fills it in.
    if (!app.hasRequestDecorator('serverAccess')) app.decorateRequest('serverAccess', null);

    const renewalGraceMs = (options.renewalGraceSeconds ?? 24 * 3600) * 1000;
    const verifyWith = (allowExpired: boolean): AuthenticateHook =>
      async function verifyAccessToken(request: FastifyRequest, reply: FastifyReply) {
        if (!request.headers.authorization) return sendError(reply, 401, AUTH_REQUIRED_MESSAGE);
        try {
          if (!allowExpired) {
            await request.jwtVerify();
            return undefined;
          }
          // Everything but the expiry is verified as usual (algorithm, issuer, audience, max age from iat,
          // revocation); the expiry is then held to the grace period here.
          await request.jwtVerify({ ignoreExpiration: true });
          if (request.user.exp * 1000 + renewalGraceMs < Date.now()) throw Object.assign(new Error('expired beyond the renewal grace'), { code: 'FAST_JWT_EXPIRED' });
          return undefined;
        } catch (error) {
          request.log.info({ reason: (error as { code?: string }).code ?? 'invalid' }, 'access token refused');
          return sendError(reply, 401, AUTH_INVALID_MESSAGE);
        }
      };

    app.decorate('authenticate', guard(verifyWith(false)));
    app.decorate('authenticateForRenewal', guard(verifyWith(true)));
  },
  { name: 'skald-auth', fastify: '5.x' },
);
