/**
 * Who may call decides first, the shape of the request second: every operation of the generated OpenAPI
 * document that asks for the bearer token (public routes declare none, ingestion its API key), called with
 * an empty body,
 *  - without a token: 401;
 *  - with the token of a signed-in user of another tenant, each path parameter naming tenant A's server (A's
 *    webhook under /webhooks/{id}) and `serverId` in the query naming it too: 404 (another tenant's server
 *    or webhook looks like none, and a route with no server named has none to grant), 403 on the staff
 *    routes (/admin/...); never 400, which would tell a stranger what the route expects;
 *  - the same with a body holding only A's server id, where the body declares one;
 * while A's owner, who may call, still gets the 400 of the schema for the same missing fields.
 * Walked on the all-in-one process and on the distributed form (the proxying gateway in front of each
 * service in its own process), whose merged document lists the same operations.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '@skald/config';
import { loadOrCreateKeys, SERVICE_NAMES, signAccessToken } from '@skald/service-kit';
import type { ServiceName } from '@skald/service-kit';
import { EMBEDDED_ADAPTERS_ENV, waitFor } from '@skald/testing';
import { buildGateway } from '../src/gateway-only.ts';
import type { RunningProcess } from '../src/launcher-app.ts';
import { buildSingleService } from '../src/single-service.ts';
import { bearer, claimsOf, FAST_PASSWORDS_ENV, startAllInOne, TEST_PASSWORD } from './support/all-in-one.ts';
import type { AllInOne, SignedUp } from './support/all-in-one.ts';

type Method = NonNullable<InjectOptions['method']>;
type Inject = (request: InjectOptions) => Promise<LightMyRequestResponse>;
interface Parameter {
  readonly name: string;
  readonly in: string;
}
interface BodySchema {
  readonly properties?: Record<string, unknown>;
  readonly required?: readonly string[];
}
interface Operation {
  readonly security?: readonly Record<string, unknown>[];
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: { readonly content?: Record<string, { readonly schema?: BodySchema }> };
}
interface OpenApi {
  readonly security?: readonly Record<string, unknown>[];
  readonly paths: Record<string, Record<string, Operation>>;
}

interface GuardedOperation {
  /** 'PUT /api/webhooks/{id}' */
  readonly route: string;
  readonly method: Method;
  readonly path: string;
  readonly operation: Operation;
}

/** One way of running Skald, as the walk sees it. */
interface Target {
  readonly inject: Inject;
  /** Tenant A's server. */
  readonly serverId: string;
  /** A webhook of tenant A's server, or an id no webhook has where the process knows none. */
  readonly webhookId: string;
  /** An alert rule of tenant A's server (routes under /alerts/{id} find the server from it), or an unknown id. */
  readonly alertId: string;
  /** A case of tenant A's server (routes under /cases/{id} find the server from it), or an unknown id. */
  readonly caseId: string;
  /** A signed-in user who is a member of none of tenant A's servers and holds no staff role. */
  readonly strangerToken: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Bearer routes that act on the caller's own account: no server to be a stranger to. */
const ACCOUNT_ROUTES = [
  'GET /api/auth/me',
  'POST /api/auth/logout',
  'POST /api/auth/refresh',
  'PATCH /api/user/username',
  'PATCH /api/user/email',
  'PATCH /api/user/password',
  'GET /api/2fa/setup',
  'POST /api/2fa/verify',
  'DELETE /api/2fa/disable',
  'POST /api/server/servers',
];

/** The routes the issue reported answering 400 to strangers. */
const REPORTED = [
  'PUT /api/webhooks/{id}',
  'POST /api/backups/{serverId}/settings',
  'PATCH /api/manage/server/{id}/users/{userId}',
  'GET /api/exports/{type}',
  'GET /api/exports/{type}/pdf',
  'PATCH /api/settings/server-name',
  'POST /api/manage/add-user',
  'POST /api/billing/create-checkout-session',
  'POST /api/billing/create-portal-session',
];

async function bearerOperations(inject: Inject): Promise<GuardedOperation[]> {
  const response = await inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  const doc = response.json<OpenApi>();
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method, operation]) => METHODS.includes(method) && asksForBearer(operation.security ?? doc.security))
      .map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, method: method.toUpperCase() as Method, path, operation })),
  );
}

function asksForBearer(security: readonly Record<string, unknown>[] | undefined): boolean {
  return (security ?? []).some((requirement) => 'bearer' in requirement);
}

const isStaffRoute = (op: GuardedOperation) => op.path.startsWith('/api/admin/');
const bodyOf = (op: GuardedOperation): BodySchema | undefined => op.operation.requestBody?.content?.['application/json']?.schema;
const bodyNamesServer = (op: GuardedOperation) => bodyOf(op)?.properties?.['serverId'] !== undefined;
const queryNames = (op: GuardedOperation) => (op.operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
const pathNames = (op: GuardedOperation) => (op.operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);

/** An operation that names a server (or a resource of one): in its path, its query or its body. */
function namesAServer(op: GuardedOperation): boolean {
  return pathNames(op).length > 0 || queryNames(op).includes('serverId') || bodyNamesServer(op);
}

/** The resource a path's `{id}` names: A's webhook under /webhooks, A's alert rule under /alerts, else A's server. */
function idOf(target: Target, path: string): string {
  if (path.startsWith('/api/webhooks/{id}')) return target.webhookId;
  if (path.startsWith('/api/alerts/{id}')) return target.alertId;
  if (path.startsWith('/api/cases/{id}')) return target.caseId;
  return target.serverId;
}

/** The URL with every path parameter naming tenant A's server (or its resource: idOf), and serverId=A. */
function urlOf(target: Target, op: GuardedOperation): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => (name === 'id' ? idOf(target, op.path) : target.serverId));
  return queryNames(op).includes('serverId') ? `${path}?serverId=${target.serverId}` : path;
}

function call(target: Target, op: GuardedOperation, headers: Record<string, string>, payload?: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return target.inject({ method: op.method, url: urlOf(target, op), headers, ...(payload ? { payload } : {}) });
}

/** What went wrong, one line per request: the walk reports every failing route at once. */
function mismatch(op: GuardedOperation, what: string, response: LightMyRequestResponse, expected: number): string[] {
  return response.statusCode === expected ? [] : [`${op.route} ${what}: ${response.statusCode} ${response.body}`];
}

function checkCoverage(operations: readonly GuardedOperation[]): void {
  expect(operations.length).toBeGreaterThan(60);
  // A new route that names no server is either an account route (listed here) or a staff route.
  const unscoped = operations.filter((op) => !namesAServer(op) && !isStaffRoute(op)).map((op) => op.route);
  expect(unscoped.sort()).toEqual([...ACCOUNT_ROUTES].sort());
  for (const route of REPORTED) expect(operations.map((op) => op.route)).toContain(route);
}

async function walkWithoutToken(target: Target, operations: readonly GuardedOperation[]): Promise<string[]> {
  const failures: string[] = [];
  for (const op of operations) {
    failures.push(...mismatch(op, 'no token, no body', await call(target, op, {}), 401));
    if (bodyOf(op)) failures.push(...mismatch(op, 'no token, {}', await call(target, op, {}, {}), 401));
  }
  return failures;
}

async function walkAsStranger(target: Target, operations: readonly GuardedOperation[]): Promise<string[]> {
  const failures: string[] = [];
  const auth = bearer(target.strangerToken);
  for (const op of operations.filter((o) => namesAServer(o) || isStaffRoute(o))) {
    const expected = isStaffRoute(op) ? 403 : 404;
    failures.push(...mismatch(op, 'no body', await call(target, op, auth), expected));
    if (bodyOf(op)) failures.push(...mismatch(op, '{}', await call(target, op, auth, {}), expected));
    if (bodyNamesServer(op)) failures.push(...mismatch(op, '{ serverId: A }', await call(target, op, auth, { serverId: target.serverId }), expected));
  }
  return failures;
}

describe('all-in-one: access is decided before the request is validated, on every bearer route', () => {
  let aio: AllInOne;
  let owner: SignedUp;
  let target: Target;
  let operations: GuardedOperation[];

  beforeAll(async () => {
    // The webhook's destination is a loopback address the test allows (nothing is ever sent to it).
    aio = await startAllInOne({ logLevel: 'silent', env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } });
    owner = await aio.signUp('guard_walk_owner');
    const stranger = await aio.signUp('guard_walk_stranger');
    const server = await aio.createServer(owner.token, 'Tenant A');
    await aio.createServer(stranger.token, 'Tenant B');

    // A's server gets a tier with webhooks (a staff change), then a webhook: the routes addressed by webhook
    // id find its server from it.
    const superadmin = bearer(signAccessToken(aio.keys, { sub: owner.userId, role: 'superadmin', tv: claimsOf(owner.token).tv }, 3600));
    const tier = await aio.inject({ method: 'PUT', url: `/api/admin/servers/${server.id}/tier`, headers: superadmin, payload: { tier: 'pro' } });
    expect(tier.statusCode, tier.body).toBe(200);
    let webhookId = '';
    await waitFor(async () => {
      const created = await aio.inject({ method: 'POST', url: '/api/webhooks', headers: bearer(owner.token), payload: { serverId: server.id, url: 'http://127.0.0.1:9/hook', platform: 'generic' } });
      if (created.statusCode === 201) webhookId = created.json<{ webhook: { id: string } }>().webhook.id;
      return created.statusCode === 201;
    }, 'the webhooks service to learn the tier and take a webhook');

    // The routes under /alerts/{id} find their server from the rule: A's server gets one, notifying the webhook.
    const alert = await aio.inject({
      method: 'POST',
      url: '/api/alerts',
      headers: bearer(owner.token),
      payload: { serverId: server.id, name: 'Guard walk', kind: 'threshold', filter: { level: 'error' }, threshold: 3, windowSeconds: 60, webhookIds: [webhookId], enabled: true },
    });
    expect(alert.statusCode, alert.body).toBe(201);
    const alertId = alert.json<{ alert: { id: string } }>().alert.id;

    // The routes under /cases/{id} find their server from the case: A's server gets one, from a stored log.
    const posted = await aio.inject({ method: 'POST', url: '/api/logs', headers: { 'x-api-key': server.api_key }, payload: { message: 'evidence' } });
    expect(posted.statusCode, posted.body).toBe(201);
    let caseId = '';
    await waitFor(async () => {
      const opened = await aio.inject({ method: 'POST', url: '/api/cases', headers: bearer(owner.token), payload: { serverId: server.id, title: 'Guard walk', logIds: [posted.json<{ id: string }>().id] } });
      if (opened.statusCode === 201) caseId = opened.json<{ id: string }>().id;
      return opened.statusCode === 201;
    }, 'the log to be stored and a case opened from it');

    target = { inject: (request) => aio.inject(request), serverId: server.id, webhookId, alertId, caseId, strangerToken: stranger.token };
    operations = await bearerOperations(target.inject);
  }, 60_000); // starts the all-in-one and seeds an account and a server per role

  afterAll(async () => {
    await aio?.close();
  });

  it('walks every bearer route the document describes', () => {
    checkCoverage(operations);
  });

  it('without a token: 401, whatever the body', async () => {
    expect(await walkWithoutToken(target, operations)).toEqual([]);
  });

  it("with another tenant's token: 404 for A's server and its resources, 403 on the staff routes, never 400", async () => {
    expect(await walkAsStranger(target, operations)).toEqual([]);
  });

  it('the owner of the server passes the same checks and gets the 400 of the schema', async () => {
    const failures: string[] = [];
    const auth = bearer(owner.token);
    const withRequiredBody = operations.filter((op) => !isStaffRoute(op) && namesAServer(op) && (bodyOf(op)?.required ?? []).some((field) => field !== 'serverId'));
    expect(withRequiredBody.length).toBeGreaterThanOrEqual(7);
    for (const op of withRequiredBody) {
      const payload = bodyNamesServer(op) ? { serverId: target.serverId } : {};
      failures.push(...mismatch(op, JSON.stringify(payload), await call(target, op, auth, payload), 400));
    }
    expect(failures).toEqual([]);
  });
});

describe('distributed: the proxying gateway in front of each service alone', () => {
  const services = SERVICE_NAMES.filter((name) => name !== 'ingestion');
  let dir: string;
  const running: RunningProcess[] = [];
  let gateway: RunningProcess;
  let target: Target;
  let operations: GuardedOperation[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'skald-guard-walk-'));
    const { secretsKey } = loadOrCreateKeys(join(dir, 'secrets'));
    const keys = join(dir, 'secrets', 'keys');
    const urls: Partial<Record<ServiceName, string>> = {};
    for (const name of services) {
      const config = loadConfig({
        ...FAST_PASSWORDS_ENV,
        TARGET: name,
        DATA_DIR: join(dir, name),
        LOG_LEVEL: 'silent',
        JWT_PUBLIC_KEY_FILE: join(keys, 'jwt-public.pem'),
        JWT_PRIVATE_KEY_FILE: join(keys, 'jwt-private.pem'),
        SECRETS_KEY: secretsKey,
        ...EMBEDDED_ADAPTERS_ENV,
      });
      const service = await buildSingleService(config, name);
      running.push(service);
      await service.start();
      await service.app.listen({ host: '127.0.0.1', port: 0 });
      urls[name] = `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}`;
    }
    gateway = await buildGateway(
      loadConfig({
        TARGET: 'gateway',
        LOG_LEVEL: 'silent',
        ...Object.fromEntries(SERVICE_NAMES.map((name) => [`SERVICE_URL_${name.toUpperCase()}`, urls[name] ?? 'http://127.0.0.1:1'])),
      }),
      { webDist: join(dir, 'no-web') },
    );
    await gateway.start();
    const inject: Inject = (request) => gateway.app.inject(request);

    // Accounts and servers live in the auth service; the other services, with no bus between them here,
    // know none of them: to them tenant A's server is as unknown as another tenant's.
    const signUp = async (username: string): Promise<string> => {
      const registered = await inject({ method: 'POST', url: '/api/auth/register', payload: { username, email: `${username}@example.test`, password: TEST_PASSWORD } });
      expect(registered.statusCode, registered.body).toBe(201);
      const login = await inject({ method: 'POST', url: '/api/auth/login', payload: { username, password: TEST_PASSWORD } });
      expect(login.statusCode, login.body).toBe(200);
      return login.json<{ token: string }>().token;
    };
    const ownerToken = await signUp('guard_walk_owner');
    const strangerToken = await signUp('guard_walk_stranger');
    const created = await inject({ method: 'POST', url: '/api/server/servers', headers: bearer(ownerToken), payload: { name: 'Tenant A' } });
    expect(created.statusCode, created.body).toBe(201);
    target = { inject, serverId: created.json<{ id: string }>().id, webhookId: 'no-such-webhook', alertId: 'no-such-alert', caseId: 'no-such-case', strangerToken };
    operations = await bearerOperations(inject);
  }, 120_000); // starts the all-in-one and walks every OpenAPI route

  afterAll(async () => {
    await gateway?.close();
    for (const service of running) await service.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('walks every bearer route of the merged document', () => {
    checkCoverage(operations);
  });

  it('without a token: 401, whatever the body', async () => {
    expect(await walkWithoutToken(target, operations)).toEqual([]);
  });

  it("with another tenant's token: 404 for A's server, 403 on the staff routes, never 400", async () => {
    expect(await walkAsStranger(target, operations)).toEqual([]);
  });
});
