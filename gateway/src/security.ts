/**
 * Browser-facing protections of the gateway: security headers (helmet) with a CSP that
 * fits the React app (antd injects inline styles, echarts draws on canvas, photos may be blob:/data:),
 * Referrer-Policy no-referrer (reset links must not leak), and CORS limited to CORS_ORIGINS
 * (any other origin gets no Access-Control-Allow-Origin). Auth is a bearer header, so no credentials mode.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: @fastify/cors skips the route (its route-level switch, which its types do not declare). */
    cors?: false;
  }
}

export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * The public ingestion endpoints answer game servers, not browsers: their JSON answers carry the
 * transport and content headers (HSTS, nosniff, Referrer-Policy) but not the browser-document ones
 * (CSP, frame, cross-origin, download and DNS-prefetch policies), which no client of these routes
 * reads. That is ~450 bytes less to write and to parse on every single-log POST, the hottest route.
 * Every other answer, HTML and API alike, keeps the full set.
 */
export const MACHINE_API_ROUTES: ReadonlySet<string> = new Set(['/api/logs', '/api/photologs']);
/** Whether a route being declared (onRoute) is one of the machine routes: POST on MACHINE_API_ROUTES. */
export function isMachineApiRoute(route: { readonly method: string | readonly string[]; readonly url: string }): boolean {
  const methods = typeof route.method === 'string' ? [route.method] : route.method;
  return methods.includes('POST') && MACHINE_API_ROUTES.has(route.url);
}

const MACHINE_API_HEADERS: ReadonlySet<string> = new Set(['strict-transport-security', 'x-content-type-options', 'referrer-policy']);

export const HELMET_OPTIONS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
  referrerPolicy: { policy: 'no-referrer' },
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers helmet sets, computed ONCE. @fastify/helmet rebuilds the helmet middleware (parsing the
 * CSP directives again) on every request, which cost ~9% of the gateway's CPU under single-log
 * ingestion. With static directives (no nonce functions) the headers never depend on the request,
 * so running helmet once against a throwaway response gives exactly what it would set each time.
 */
export function securityHeaders(options: Readonly<HelmetOptions>): ReadonlyArray<readonly [string, string]> {
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  let failure: unknown;
  helmet(options)(request, response, (error?: unknown) => {
    failure = error;
  });
  if (failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure));
  return Object.entries(response.getHeaders()).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)] as const);
}

export async function registerSecurity(app: FastifyInstance, corsOrigins: readonly string[]): Promise<void> {
  const headers = securityHeaders(HELMET_OPTIONS);
  const machineHeaders = headers.filter(([name]) => MACHINE_API_HEADERS.has(name));
  // Headers set on the raw response in onRequest, as @fastify/helmet does, so every answer (routes,
  // 404s, errors, the SPA fallback) carries them; a service's own reply.header() still wins.
  app.addHook('onRequest', (request, reply, done) => {
    const machine = request.method === 'POST' && MACHINE_API_ROUTES.has(request.routeOptions.url ?? '');
    for (const [name, value] of machine ? machineHeaders : headers) reply.raw.setHeader(name, value);
    done();
  });
  // Game servers are no browsers: CORS is off on the machine routes (no Vary: Origin, no origin check per
  // request). The origins CORS_ORIGINS allows are Skald's own web app, which never posts logs. All-in-one
  // only: in gateway mode these routes live in the ingestion process, behind the proxy's wildcard route.
  app.addHook('onRoute', (route) => {
    if (isMachineApiRoute(route)) route.config = { ...route.config, cors: false };
  });
  const allowed = new Set(corsOrigins);
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-API-Key', 'X-Request-Id'],
    exposedHeaders: ['X-Total-Count', 'X-Total-Capped', 'X-Request-Id', 'Retry-After', 'Content-Disposition'],
    maxAge: 600,
  });
}
