/**
 * The Skald OpenAPI document, built the same way in every launcher mode:
 *  - a process that runs services GENERATES it from their route schemas (@fastify/swagger): summary,
 *    tags, params, querystring, body and response schemas come from the routes themselves;
 *  - the proxying gateway MERGES the documents its upstreams generate (each serves `/openapi.json`).
 * Both start from `openApiBase`, so the title, security schemes and notes never differ between modes.
 */
import { isDeepStrictEqual } from 'node:util';
import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';

export const OPENAPI_VERSION = '3.1.0';
export const OPENAPI_TITLE = 'Skald API';

type JsonObject = Record<string, unknown>;
export type SecurityRequirements = readonly Readonly<Record<string, readonly string[]>>[];

/** The parts of an OpenAPI document Skald builds and merges; any other field passes through untouched. */
export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string; readonly description?: string };
  readonly paths: Readonly<Record<string, JsonObject>>;
  readonly components?: Readonly<Record<string, JsonObject>>;
  readonly [field: string]: unknown;
}

/** Web routes: the access token the auth service issues. Public ingestion routes: the server's API key. */
export const BEARER_SECURITY: SecurityRequirements = [{ bearer: [] }];
export const API_KEY_SECURITY: SecurityRequirements = [{ apiKey: [] }];

const SECURITY_SCHEMES = {
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from POST /api/auth/login.' },
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: "The game server's API key (public ingestion API)." },
};

const DESCRIPTION = [
  'Skald: hosted logs for game servers. Errors answer { "error": string, "message": string }.',
  'Web routes take the access token as a bearer token. The public ingestion API (POST /api/logs, POST /api/photologs) takes the ' +
    "server's API key in the X-API-Key header; the ?apiKey= query parameter still works but is deprecated.",
].join('\n\n');

/** The document before any path: info, the security schemes, bearer as the default requirement. */
export function openApiBase(version: string, notes: readonly string[] = []): OpenApiDocument {
  return {
    openapi: OPENAPI_VERSION,
    info: { title: OPENAPI_TITLE, version, description: [DESCRIPTION, ...notes].join('\n\n') },
    components: { securitySchemes: SECURITY_SCHEMES },
    security: BEARER_SECURITY,
    paths: {},
  };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isObjectOfObjects(value: unknown): value is Record<string, JsonObject> {
  return isObject(value) && Object.values(value).every(isObject);
}

/** Checks a document read from elsewhere (an upstream's answer) before it is merged. */
export function isOpenApiDocument(value: unknown): value is OpenApiDocument {
  if (!isObject(value) || typeof value.openapi !== 'string' || !isObject(value.info)) return false;
  if (typeof value.info.title !== 'string' || typeof value.info.version !== 'string') return false;
  return isObjectOfObjects(value.paths) && (value.components === undefined || isObjectOfObjects(value.components));
}

export interface OpenApiGeneratorOptions {
  /** The version in `info` (the release, from the root package.json). */
  readonly version: string;
  /** Where the document is served ('/api/openapi.json' all-in-one, '/openapi.json' for one service). */
  readonly documentPath: string;
  /** Only routes under this prefix are described ('/api' all-in-one: not the web app); '' describes all. */
  readonly pathPrefix: string;
  /** Security of a route whose schema declares none, by method and path without the prefix; default bearer. */
  readonly securityFor?: (method: string, path: string) => SecurityRequirements | undefined;
}

/**
 * Registers the generator and the document route. Only routes added AFTER this call are described
 * (@fastify/swagger collects them with an onRoute hook), so register it after the process's own
 * /health and /ready routes and before the services are mounted.
 */
export async function registerOpenApiGenerator(app: FastifyInstance, options: OpenApiGeneratorOptions): Promise<void> {
  const { pathPrefix } = options;
  const { paths: _none, ...base } = openApiBase(options.version);
  await app.register(swagger, {
    openapi: base,
    transform: ({ schema, url, route }) => {
      // The typings promise a schema, but a route declared without one has none (it is still listed, undescribed).
      const declared: FastifySchema = schema ?? {};
      if (pathPrefix && !url.startsWith(`${pathPrefix}/`)) return { schema: { ...declared, hide: true }, url };
      const method = [route.method].flat()[0] ?? 'GET';
      const security = declared.security ?? options.securityFor?.(method, url.slice(pathPrefix.length));
      return { schema: security ? { ...declared, security } : declared, url };
    },
  });
  app.get(options.documentPath, { schema: { hide: true } }, async () => generatedOpenApi(app));
}

/** The generated document (after ready): what `registerOpenApiGenerator` serves. */
export function generatedOpenApi(app: FastifyInstance): OpenApiDocument {
  const document: unknown = app.swagger();
  if (!isOpenApiDocument(document)) throw new Error('@fastify/swagger produced no OpenAPI document');
  return document;
}

/** An upstream's generated document, or why there is none (the note says so; the rest is still served). */
export type UpstreamOpenApi =
  | { readonly service: string; readonly document: OpenApiDocument }
  | { readonly service: string; readonly failure: string };

/** Replaces `$ref`s to renamed components (two services that named different schemas alike). */
function rewriteRefs(value: unknown, renamed: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, renamed));
  return isObject(value) ? rewriteObjectRefs(value, renamed) : value;
}

function rewriteObjectRefs(value: JsonObject, renamed: ReadonlyMap<string, string>): JsonObject {
  if (renamed.size === 0) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, key === '$ref' && typeof item === 'string' ? (renamed.get(item) ?? item) : rewriteRefs(item, renamed)]),
  );
}

const componentRef = (section: string, name: string) => `#/components/${section}/${name}`;

/**
 * One document from the upstreams' documents: their paths under `pathPrefix` (the services serve '/logs/my',
 * browsers call '/api/logs/my'), their components merged. A component name two services use for different
 * schemas is renamed `<service>-<name>` in the second one. Upstreams without a document are named in
 * `info.description`.
 */
export function mergeOpenApiDocuments(version: string, upstreams: readonly UpstreamOpenApi[], pathPrefix: string): OpenApiDocument {
  const missing = upstreams.flatMap((u) => ('failure' in u ? [`${u.service} (${u.failure})`] : []));
  const base = openApiBase(version, missing.length ? [`Not described right now, their service did not answer: ${missing.join(', ')}.`] : []);
  const paths: Record<string, JsonObject> = {};
  const components: Record<string, JsonObject> = {};
  for (const [section, entries] of Object.entries(base.components ?? {})) components[section] = { ...entries };

  for (const upstream of upstreams) {
    if (!('document' in upstream)) continue;
    const sections = Object.entries(upstream.document.components ?? {});
    const renamed = new Map<string, string>();
    for (const [section, entries] of sections) {
      for (const [name, entry] of Object.entries(entries)) {
        const existing = components[section]?.[name];
        if (existing !== undefined && !isDeepStrictEqual(existing, entry)) renamed.set(componentRef(section, name), componentRef(section, `${upstream.service}-${name}`));
      }
    }
    for (const [section, entries] of sections) {
      const target = (components[section] ??= {});
      for (const [name, entry] of Object.entries(entries)) {
        const key = renamed.has(componentRef(section, name)) ? `${upstream.service}-${name}` : name;
        target[key] = rewriteRefs(entry, renamed);
      }
    }
    for (const [path, item] of Object.entries(upstream.document.paths)) {
      const full = `${pathPrefix}${path}`;
      paths[full] = { ...paths[full], ...rewriteObjectRefs(item, renamed) };
    }
  }
  return { ...base, components, paths };
}
