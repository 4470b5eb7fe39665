/**
 * The OpenAPI document of a process that runs services, generated from their route schemas
 * (see libs/service-kit/src/openapi.ts): all-in-one serves GET /api/openapi.json with the /api paths
 * browsers call; a single service serves GET /openapi.json with its own paths, which the proxying
 * gateway fetches and merges (src/openapi-proxy.ts).
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { API_KEY_SECURITY, registerOpenApiGenerator } from '@skald/service-kit';
import type { SecurityRequirements } from '@skald/service-kit';
import { serviceFor } from './route-table.ts';

/** Where a single service serves its document (the proxying gateway reads it there). */
export const OPENAPI_DOCUMENT_PATH = '/openapi.json';

/** The release the document describes: the root package.json version. */
export const SKALD_VERSION = readVersion();

function readVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const version = typeof manifest === 'object' && manifest !== null && 'version' in manifest ? manifest.version : undefined;
  return typeof version === 'string' ? version : '0.0.0';
}

/**
 * The ingestion service owns exactly the public ingestion API (route table), which game servers call
 * with their API key; every other route keeps the document's default, the bearer access token.
 */
function securityFor(method: string, path: string): SecurityRequirements | undefined {
  return serviceFor(method, path) === 'ingestion' ? API_KEY_SECURITY : undefined;
}

/** All-in-one: call after the gateway's own routes (health), before the services are mounted. */
export async function registerAllInOneOpenApi(app: FastifyInstance): Promise<void> {
  await registerOpenApiGenerator(app, { version: SKALD_VERSION, documentPath: '/api/openapi.json', pathPrefix: '/api', securityFor });
}

/** One service alone: call after /health and /ready, before the service is mounted. */
export async function registerServiceOpenApi(app: FastifyInstance): Promise<void> {
  await registerOpenApiGenerator(app, { version: SKALD_VERSION, documentPath: OPENAPI_DOCUMENT_PATH, pathPrefix: '', securityFor });
}
