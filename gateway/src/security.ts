/**
 * Browser-facing protections of the gateway: security headers (@fastify/helmet) with a CSP that
 * fits the React app (antd injects inline styles, echarts draws on canvas, photos may be blob:/data:),
 * Referrer-Policy no-referrer (reset links must not leak), and CORS limited to CORS_ORIGINS
 * (any other origin gets no Access-Control-Allow-Origin). Auth is a bearer header, so no credentials mode.
 */
import helmet from '@fastify/helmet';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

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

export async function registerSecurity(app: FastifyInstance, corsOrigins: readonly string[]): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  });
  const allowed = new Set(corsOrigins);
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-API-Key', 'X-Request-Id'],
    exposedHeaders: ['X-Total-Count', 'X-Request-Id', 'Retry-After', 'Content-Disposition'],
    maxAge: 600,
  });
}
