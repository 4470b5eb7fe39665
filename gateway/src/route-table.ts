/**
 * THE route table: which service owns each API path (docs/spec/part-1.txt section 7, docs/spec/part-2.txt section 7). Paths are the
 * spec's, without the /api prefix the gateway adds. Used in both modes:
 *   - all-in-one: every route a service registers must resolve to that same service here
 *     (checked at startup by an onRoute hook, so the table cannot drift from the code);
 *   - distributed: the gateway proxies /api/<path> to the owning service.
 * Matching is method-aware and segment-wise; `:param` matches any one segment. The most specific
 * entry wins: more pattern segments first, then more literal segments, then an exact entry over a prefix one.
 */
import type { ServiceName } from '@skald/service-kit';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface RouteEntry {
  /** '*' = every method. */
  readonly methods: readonly Method[] | '*';
  /** Path pattern, e.g. '/logs', '/server/:id/audit-logs'. */
  readonly pattern: string;
  readonly service: ServiceName;
  /** Exact: the path must equal the pattern; otherwise the pattern is a segment prefix. */
  readonly exact?: boolean;
  /** Body limit in bytes for matching requests (default: the configured BODY_LIMIT_BYTES). */
  readonly bodyLimit?: number;
  readonly note?: string;
}

const MB = 1024 * 1024;
/** 1000 logs of a few KB each; the ingestion service validates the count itself. */
export const LOG_BATCH_BODY_LIMIT = 5 * MB;
/** A 10 MB photo plus multipart framing and the text fields. */
export const PHOTO_BODY_LIMIT = 10 * MB + 512 * 1024;
/** A 10 MB photo as base64 text in JSON (Fivemanage's /v3/file/base64). */
export const BASE64_PHOTO_BODY_LIMIT = 14 * MB;
/** Discord's message limit: the JSON or the attachments of one message. */
export const DISCORD_BODY_LIMIT = 25 * MB;

export const ROUTE_TABLE: readonly RouteEntry[] = [
  // Public ingestion API (API key): single log or a batch of up to 1000, and photo logs.
  { methods: ['POST'], pattern: '/logs', exact: true, service: 'ingestion', bodyLimit: LOG_BATCH_BODY_LIMIT },
  { methods: ['POST'], pattern: '/photologs', exact: true, service: 'ingestion', bodyLimit: PHOTO_BODY_LIMIT },
  // Compatible ingestion (docs/INGESTION.md): the paths Loki, Datadog, Fivemanage, screenshot-basic
  // and Discord clients call, under /api like every route.
  { methods: ['POST'], pattern: '/loki/api/v1/push', exact: true, service: 'ingestion', bodyLimit: LOG_BATCH_BODY_LIMIT },
  { methods: ['POST'], pattern: '/v2/logs', exact: true, service: 'ingestion', bodyLimit: LOG_BATCH_BODY_LIMIT },
  { methods: ['POST'], pattern: '/logs/batch', exact: true, service: 'ingestion', bodyLimit: LOG_BATCH_BODY_LIMIT },
  { methods: ['POST'], pattern: '/v3/logs', exact: true, service: 'ingestion', bodyLimit: LOG_BATCH_BODY_LIMIT },
  { methods: ['POST'], pattern: '/image', exact: true, service: 'ingestion', bodyLimit: PHOTO_BODY_LIMIT },
  { methods: ['POST'], pattern: '/v2/image', exact: true, service: 'ingestion', bodyLimit: PHOTO_BODY_LIMIT },
  { methods: ['POST'], pattern: '/v3/file', exact: true, service: 'ingestion', bodyLimit: PHOTO_BODY_LIMIT },
  { methods: ['POST'], pattern: '/v3/file/base64', exact: true, service: 'ingestion', bodyLimit: BASE64_PHOTO_BODY_LIMIT },
  { methods: ['POST'], pattern: '/discord', service: 'ingestion', bodyLimit: DISCORD_BODY_LIMIT, note: 'the API key is the next path segment (redacted from logs)' },
  // Read side of logs: /logs/my, /logs/my/combined, /logs/stats, DELETE /logs/cleanup, /photologs/my, photo images.
  { methods: '*', pattern: '/logs', service: 'logs' },
  { methods: '*', pattern: '/photologs', service: 'logs' },
  { methods: '*', pattern: '/server/usage', service: 'logs' },
  { methods: '*', pattern: '/settings/colors', service: 'logs' },
  { methods: '*', pattern: '/settings/levels', service: 'logs' },
  // The player view (docs/PLAYERS.md): players extracted from the logs, their timelines and erasure.
  { methods: '*', pattern: '/players', service: 'logs' },
  // Saved searches: named filters of /logs shared by a server's members (docs/LOGS_API.md).
  { methods: '*', pattern: '/saved-searches', service: 'logs' },
  { methods: '*', pattern: '/cases', service: 'logs' },
  // Identity and tenancy.
  { methods: '*', pattern: '/auth', service: 'auth' },
  { methods: '*', pattern: '/user', service: 'auth' },
  { methods: '*', pattern: '/2fa', service: 'auth' },
  { methods: '*', pattern: '/server/servers', service: 'auth' },
  { methods: '*', pattern: '/settings/server-name', service: 'auth' },
  { methods: '*', pattern: '/settings/api-key', service: 'auth' },
  { methods: '*', pattern: '/manage', service: 'auth' },
  // Later issues: webhooks, backups, billing, admin (audit logs and exports land with the admin service).
  { methods: '*', pattern: '/webhooks', service: 'webhooks' },
  { methods: '*', pattern: '/alerts', service: 'webhooks', note: 'alert rules (docs/ALERTS.md)' },
  { methods: '*', pattern: '/backups', service: 'backups' },
  { methods: '*', pattern: '/tiers', service: 'billing' },
  { methods: '*', pattern: '/billing', service: 'billing' },
  // Staff tier and suspension changes: billing is the one publisher of both facts (docs/spec/part-2.txt section 6).
  { methods: ['PUT'], pattern: '/admin/servers/:id/tier', exact: true, service: 'billing' },
  { methods: ['PUT'], pattern: '/admin/servers/:id/suspend', exact: true, service: 'billing' },
  { methods: '*', pattern: '/admin', service: 'admin' },
  // Audit trail and exports (docs/AUDIT_AND_EXPORTS.md): admin owns the trail,
  // logs serves every export (its log store, plus its own copy of the audit entries) and the monthly count.
  { methods: ['GET'], pattern: '/server/:id/audit-logs', exact: true, service: 'admin', note: "a server's audit trail" },
  { methods: ['GET'], pattern: '/admin/logs', exact: true, service: 'admin', note: 'staff actions from the audit trail' },
  { methods: '*', pattern: '/exports', service: 'logs', note: 'CSV and PDF exports, export status' },
  // Staff admin area (docs/ADMIN_AREA.md): changes of facts auth owns are auth's
  // routes; a server's logs and photo logs are served by the logs service from its log store; every other
  // /admin read is the admin service's (its read models), by the '/admin' prefix above.
  { methods: ['PUT'], pattern: '/admin/users/:id/role', exact: true, service: 'auth', note: "a user's site role" },
  { methods: ['PUT'], pattern: '/admin/users/:id/active', exact: true, service: 'auth', note: 'disable or enable an account' },
  { methods: ['POST'], pattern: '/admin/servers/:id/users', exact: true, service: 'auth', note: 'staff adds a server member' },
  { methods: ['PUT', 'DELETE'], pattern: '/admin/servers/:id/users/:userId', exact: true, service: 'auth', note: "staff changes or removes a server member" },
  { methods: ['GET', 'HEAD'], pattern: '/admin/servers/:id/logs', exact: true, service: 'logs', note: "a server's newest logs for staff" },
  { methods: ['GET', 'HEAD'], pattern: '/admin/servers/:id/photologs', exact: true, service: 'logs', note: "a server's photo logs for staff" },
];

function segments(path: string): string[] {
  return path.split('?')[0]!.split('/').filter((s) => s.length > 0);
}

interface Compiled {
  readonly entry: RouteEntry;
  readonly parts: readonly string[];
  readonly score: number;
}

function compile(table: readonly RouteEntry[]): Compiled[] {
  return table.map((entry) => {
    const parts = segments(entry.pattern);
    const literals = parts.filter((p) => !p.startsWith(':')).length;
    return { entry, parts, score: parts.length * 100 + literals * 10 + (entry.exact ? 1 : 0) };
  });
}

function matches(compiled: Compiled, method: string, pathParts: readonly string[]): boolean {
  const { entry, parts } = compiled;
  if (entry.methods !== '*' && !(entry.methods as readonly string[]).includes(method)) return false;
  if (entry.exact ? pathParts.length !== parts.length : pathParts.length < parts.length) return false;
  return parts.every((part, i) => part.startsWith(':') ? (pathParts[i] ?? '') !== '' : part === pathParts[i]);
}

export interface RouteResolver {
  /** The entry owning method + path (path without /api, query ignored), or null. */
  resolve(method: string, path: string): RouteEntry | null;
  readonly entries: readonly RouteEntry[];
}

export function createRouteResolver(table: readonly RouteEntry[] = ROUTE_TABLE): RouteResolver {
  const compiled = compile(table).sort((a, b) => b.score - a.score);
  return {
    entries: table,
    resolve(method, path) {
      const upper = method.toUpperCase();
      const pathParts = segments(path);
      // HEAD is served wherever GET is (Fastify exposes HEAD routes for GET routes).
      const found =
        compiled.find((c) => matches(c, upper, pathParts)) ??
        (upper === 'HEAD' ? compiled.find((c) => matches(c, 'GET', pathParts)) : undefined);
      return found?.entry ?? null;
    },
  };
}

export const routeResolver = createRouteResolver();

export function serviceFor(method: string, path: string): ServiceName | null {
  return routeResolver.resolve(method, path)?.service ?? null;
}

export function bodyLimitFor(method: string, path: string, fallback: number): number {
  return routeResolver.resolve(method, path)?.bodyLimit ?? fallback;
}

/** Throws when a route a service registers is not owned by that service in the table. */
export function assertRouteOwned(service: ServiceName, methods: readonly string[], path: string, resolver: RouteResolver = routeResolver): void {
  for (const method of methods) {
    const owner = resolver.resolve(method, path)?.service ?? null;
    if (owner !== service) {
      throw new Error(
        `Route table drift: service "${service}" registered ${method} ${path}, which the route table ` +
          `(gateway/src/route-table.ts) gives to ${owner ? `"${owner}"` : 'no service'}`,
      );
    }
  }
}
