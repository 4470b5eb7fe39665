/**
 * Every route that takes a body, walked from the generated OpenAPI document of the all-in-one process:
 *  - a wrong-typed field (a number, a boolean, an array or an operator object where a string is declared;
 *    text where an object is) is refused with a 400 whose sentence names the field as a person reads it
 *    ('Server name must be text.', never the validator's 'name must be string'): no coercion
 *    (`{"name":["Coerced"]}` used to create a server named "Coerced");
 *  - an unknown field is refused with a 400 naming it (it used to be dropped with a 2xx);
 *  - a JSON body that is not valid UTF-8 is refused with a 400 (it used to be stored with U+FFFD);
 * and nothing changed: each refusal stops at the schema (its 'request validation failed' line, before any
 * handler), and the account, its servers, members and colours read the same afterwards.
 * POST /logs validates its own body (it names the field of a batch, `[3].level`); it is walked the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { fieldLabel, isRawValidatorText, validationSentence } from '@skald/contracts';
import { signAccessToken } from '@skald/service-kit';
import { waitFor } from '@skald/testing';
import { bearer, claimsOf, startAllInOne, TEST_PASSWORD } from './support/all-in-one.ts';
import type { AllInOne, SignedUp } from './support/all-in-one.ts';

type JsonSchema = { readonly type?: string; readonly properties?: Record<string, JsonSchema>; readonly anyOf?: readonly JsonSchema[] };
type Operation = { readonly requestBody?: { readonly content?: Record<string, { readonly schema?: JsonSchema }> } };
type OpenApi = { readonly paths: Record<string, Record<string, Operation>> };

interface BodyRoute {
  readonly route: string;
  readonly url: string;
  readonly sample: Record<string, unknown>;
  readonly headers: Record<string, string>;
  /** The body schema from the OpenAPI document; absent for a route that validates its body itself. */
  readonly schema?: JsonSchema;
}

let aio: AllInOne;
let owner: SignedUp;
let member: SignedUp;
let server: { id: string; api_key: string };
let webhookId: string;
let alertId: string;
/** PATCH /cases/{id} decides access from the case: the walk edits a real one, of a second server of the owner (its log stays out of the first's). */
let caseServer: { id: string; api_key: string };
let caseId: string;

beforeAll(async () => {
  // The webhook's destination is a loopback address the test allows (nothing is sent to it).
  aio = await startAllInOne({ logLevel: 'info', env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } });
  owner = await aio.signUp('body_rules_owner');
  member = await aio.signUp('body_rules_member');
  server = await aio.createServer(owner.token, 'Body rules');
  const added = await aio.inject({ method: 'POST', url: '/api/manage/add-user', headers: bearer(owner.token), payload: { serverId: server.id, email: `${member.username}@example.test`, role: 'user' } });
  expect(added.statusCode).toBe(201);
  // PUT /webhooks/{id} decides access from the webhook before the schema: the walk edits a real one, on a tier with webhooks.
  const tier = await aio.inject({ method: 'PUT', url: `/api/admin/servers/${server.id}/tier`, headers: superadminAuth(), payload: { tier: 'pro' } });
  expect(tier.statusCode).toBe(200);
  await waitFor(async () => {
    const created = await aio.inject({ method: 'POST', url: '/api/webhooks', headers: bearer(owner.token), payload: { serverId: server.id, url: 'http://127.0.0.1:9/hook', platform: 'generic' } });
    if (created.statusCode === 201) webhookId = created.json<{ webhook: { id: string } }>().webhook.id;
    return created.statusCode === 201;
  }, 'the webhooks service to learn the tier and take a webhook');
  // PUT /alerts/{id} likewise decides access from the rule: the walk edits a real one.
  const alert = await aio.inject({ method: 'POST', url: '/api/alerts', headers: bearer(owner.token), payload: { ...alertRule(), serverId: server.id } });
  expect(alert.statusCode, alert.body).toBe(201);
  alertId = alert.json<{ alert: { id: string } }>().alert.id;
  caseServer = await aio.createServer(owner.token, 'Body rules cases');
  const posted = await aio.inject({ method: 'POST', url: '/api/logs', headers: { 'x-api-key': caseServer.api_key }, payload: { message: 'evidence' } });
  expect(posted.statusCode, posted.body).toBe(201);
  const logId = posted.json<{ id: string }>().id;
  await waitFor(async () => {
    const opened = await aio.inject({ method: 'POST', url: '/api/cases', headers: bearer(owner.token), payload: { serverId: caseServer.id, title: 'Body rules', logIds: [logId] } });
    if (opened.statusCode === 201) caseId = opened.json<{ id: string }>().id;
    return opened.statusCode === 201;
  }, 'the log to be stored and a case opened from it');
});

/** An alert rule the schema accepts (without its serverId, as PUT /alerts/{id} takes it). */
function alertRule(): Record<string, unknown> {
  return { name: 'Body rules', kind: 'threshold', filter: { level: 'error' }, threshold: 3, windowSeconds: 60, webhookIds: [webhookId], enabled: true };
}

afterAll(async () => {
  await aio?.close();
});

/** The owner's account with the superadmin site role in its token, as auth would sign it after a promotion. */
function superadminAuth(): { authorization: string } {
  return bearer(signAccessToken(aio.keys, { sub: owner.userId, role: 'superadmin', tv: claimsOf(owner.token).tv }, 3600));
}

/** A body each route's schema accepts: the walk changes one field of it at a time. */
function samples(): Record<string, { url: string; sample: Record<string, unknown>; headers?: Record<string, string> }> {
  const ownerAuth = bearer(owner.token);
  return {
    'POST /api/auth/register': { url: '/api/auth/register', sample: { username: 'body_rules_new', password: 'long-enough-1', email: 'new@example.test' } },
    'POST /api/auth/login': { url: '/api/auth/login', sample: { username: owner.username, password: TEST_PASSWORD } },
    'POST /api/auth/2fa-login': { url: '/api/auth/2fa-login', sample: { token: 'pre-token', code: '123456' } },
    'POST /api/auth/forgot-password': { url: '/api/auth/forgot-password', sample: { email: `${owner.username}@example.test` } },
    'POST /api/auth/reset-password': { url: '/api/auth/reset-password', sample: { token: 'reset-token', password: 'long-enough-1' } },
    'PATCH /api/user/username': { url: '/api/user/username', sample: { username: 'body_rules_renamed' }, headers: ownerAuth },
    'PATCH /api/user/email': { url: '/api/user/email', sample: { email: 'renamed@example.test' }, headers: ownerAuth },
    'PATCH /api/user/password': { url: '/api/user/password', sample: { currentPassword: TEST_PASSWORD, newPassword: 'another-pass-1' }, headers: ownerAuth },
    'POST /api/2fa/verify': { url: '/api/2fa/verify', sample: { token: '123456' }, headers: ownerAuth },
    'DELETE /api/2fa/disable': { url: '/api/2fa/disable', sample: { token: '123456' }, headers: ownerAuth },
    'POST /api/server/servers': { url: '/api/server/servers', sample: { name: 'Coerced' }, headers: ownerAuth },
    'PATCH /api/settings/server-name': { url: '/api/settings/server-name', sample: { serverId: server.id, newName: 'Renamed' }, headers: ownerAuth },
    'POST /api/manage/add-user': { url: '/api/manage/add-user', sample: { serverId: server.id, email: 'someone@example.test', role: 'user' }, headers: ownerAuth },
    'PATCH /api/manage/server/{id}/users/{userId}': { url: `/api/manage/server/${server.id}/users/${member.userId}`, sample: { role: 'admin' }, headers: ownerAuth },
    'PUT /api/settings/colors': { url: `/api/settings/colors?serverId=${server.id}`, sample: { info: { bg_color: '#000000', text_color: '#ffffff' } }, headers: ownerAuth },
    'POST /api/billing/create-checkout-session': { url: '/api/billing/create-checkout-session', sample: { serverId: server.id, tier: 'pro' }, headers: ownerAuth },
    'POST /api/billing/create-portal-session': { url: '/api/billing/create-portal-session', sample: { serverId: server.id }, headers: ownerAuth },
    // Staff routes check the site role before the body: the walk sends them as a superadmin (a token with that role).
    'PUT /api/admin/servers/{id}/tier': { url: `/api/admin/servers/${server.id}/tier`, sample: { tier: 'pro' }, headers: superadminAuth() },
    'PUT /api/admin/servers/{id}/suspend': { url: `/api/admin/servers/${server.id}/suspend`, sample: { suspended: true }, headers: superadminAuth() },
    'POST /api/webhooks': { url: '/api/webhooks', sample: { serverId: server.id, url: 'https://example.com/hook', platform: 'generic' }, headers: ownerAuth },
    'PUT /api/webhooks/{id}': { url: `/api/webhooks/${webhookId}`, sample: { url: 'https://example.com/hook', platform: 'generic' }, headers: ownerAuth },
    'POST /api/alerts': { url: '/api/alerts', sample: { ...alertRule(), serverId: server.id }, headers: ownerAuth },
    'PUT /api/alerts/{id}': { url: `/api/alerts/${alertId}`, sample: alertRule(), headers: ownerAuth },
    'POST /api/backups/{serverId}/settings': {
      url: `/api/backups/${server.id}/settings`,
      sample: { enabled: false, interval_hours: 24, db_host: '', db_port: 3306, db_user: '', db_pass_enc: '', db_name: '' },
      headers: ownerAuth,
    },
    'PUT /api/admin/users/{id}/role': { url: `/api/admin/users/${member.userId}/role`, sample: { role: 'moderator' }, headers: superadminAuth() },
    'PUT /api/admin/users/{id}/active': { url: `/api/admin/users/${member.userId}/active`, sample: { active: false }, headers: superadminAuth() },
    'POST /api/admin/servers/{id}/users': { url: `/api/admin/servers/${server.id}/users`, sample: { email: 'someone@example.test', role: 'user' }, headers: superadminAuth() },
    'PUT /api/admin/servers/{id}/users/{userId}': { url: `/api/admin/servers/${server.id}/users/${member.userId}`, sample: { role: 'admin' }, headers: superadminAuth() },
    'POST /api/saved-searches': { url: '/api/saved-searches', sample: { serverId: server.id, name: 'Body rules', query: { search: 'bank', level: 'error' } }, headers: ownerAuth },
    'POST /api/cases': { url: '/api/cases', sample: { serverId: caseServer.id, title: 'Body rules', notes: 'n', logIds: ['no-such-log'] }, headers: ownerAuth },
    'POST /api/cases/{id}/logs': { url: `/api/cases/${caseId}/logs`, sample: { logIds: ['no-such-log'] }, headers: ownerAuth },
    'PATCH /api/cases/{id}': { url: `/api/cases/${caseId}`, sample: { title: 'Body rules', notes: 'n', status: 'closed' }, headers: ownerAuth },
  };
}

/** POST /logs takes a body without a body schema: it validates it itself (domain/log-input.ts). */
const SELF_VALIDATED = ['POST /api/logs'];

async function bodyRoutes(): Promise<BodyRoute[]> {
  const doc = (await aio.inject({ method: 'GET', url: '/api/openapi.json' })).json<OpenApi>();
  const withSchema = Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => operation.requestBody?.content?.['application/json']?.schema)
      .map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, schema: operation.requestBody!.content!['application/json']!.schema! })),
  );
  const table = samples();
  // Every route with a body schema has a sample (a new one fails here until it gets one), and no sample is stale.
  expect(withSchema.map((r) => r.route).sort()).toEqual(Object.keys(table).sort());
  const documented = Object.entries(doc.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
  for (const route of SELF_VALIDATED) expect(documented).toContain(route);
  return [
    ...withSchema.map(({ route, schema }) => ({ route, schema, url: table[route]!.url, sample: table[route]!.sample, headers: table[route]!.headers ?? {} })),
    { route: 'POST /api/logs', url: '/api/logs', sample: { message: 'hello', level: 'info', type: 'General', resource: 'core', metadata: { a: 1 } }, headers: { 'x-api-key': server.api_key } },
  ];
}

/** Values of the wrong type for a declared type (a string where an object is declared, and so on). */
function wrongValues(schema: JsonSchema | undefined): unknown[] {
  const type = schema?.type ?? schema?.anyOf?.[0]?.type ?? 'string';
  if (type === 'object') return ['text', 42, ['x']];
  if (type === 'integer' || type === 'number') return ['5', true];
  if (type === 'boolean') return ['true', 1];
  // A list of strings (an alert rule's webhookIds): not a list, or a list holding a number.
  if (type === 'array') return ['text', 42, { $ne: null }, null, [42]];
  return [42, true, ['x'], { $ne: null }, null];
}

/** Each top-level field, and for object fields each of their fields, as a path with its schema. */
function fieldsOf(route: BodyRoute): { path: readonly string[]; schema: JsonSchema | undefined }[] {
  const fields: { path: readonly string[]; schema: JsonSchema | undefined }[] = [];
  for (const name of Object.keys(route.sample)) {
    const schema = route.schema?.properties?.[name];
    fields.push({ path: [name], schema });
    const value = route.sample[name];
    if (schema?.type === 'object' && typeof value === 'object' && value !== null) {
      for (const inner of Object.keys(value)) fields.push({ path: [name, inner], schema: schema.properties?.[inner] });
    }
  }
  // POST /logs: the text fields are strings; metadata is an object.
  if (!route.schema) return fields.map((field) => ({ ...field, schema: field.path[0] === 'metadata' ? { type: 'object' } : { type: 'string' } })).filter((f) => f.path.length === 1);
  return fields;
}

function withValue(sample: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  if (rest.length === 0) return { ...sample, [head!]: value };
  return { ...sample, [head!]: withValue(sample[head!] as Record<string, unknown>, rest, value) };
}

function method(route: BodyRoute): InjectOptions['method'] {
  return route.route.split(' ')[0] as InjectOptions['method'];
}

/**
 * A schema refusal's sentence names the field by its label ('Database host', 'Choose a plan from the list.'),
 * or is the spec's own text for that field ('Insert a valid amount of days (0 or more)').
 */
function namesField(error: string, field: string): boolean {
  return error.toLowerCase().includes(fieldLabel(field).toLowerCase()) || error === validationSentence({ field, rule: 'invalid' });
}

function stoppedAtSchema(response: LightMyRequestResponse): boolean {
  const reqId = response.headers['x-request-id'];
  return aio.lines.some((line) => line.includes(`"reqId":"${reqId}"`) && line.includes('"msg":"request validation failed"'));
}

async function state(): Promise<string> {
  const read = async (url: string) => (await aio.inject({ method: 'GET', url, headers: bearer(owner.token) })).body;
  return JSON.stringify([
    await read('/api/auth/me'),
    await read(`/api/manage/server/${server.id}/users`),
    await read(`/api/settings/colors?serverId=${server.id}`),
    await read(`/api/logs/my?serverId=${server.id}`),
    await read(`/api/alerts?serverId=${server.id}`),
    await read(`/api/saved-searches?serverId=${server.id}`),
    await read(`/api/cases/${caseId}`).then((body) => body.replace(/"updatedAt":"[^"]*"|\?t=[^"]*/g, '')),
  ]);
}

describe('request bodies on every route', () => {
  it('refuse wrong types and unknown fields with a 400 naming the field, changing nothing', async () => {
    const before = await state();
    const routes = await bodyRoutes();
    let refusals = 0;
    for (const route of routes) {
      const send = (payload: unknown) => aio.inject({ method: method(route), url: route.url, headers: route.headers, payload: payload as Record<string, unknown> });
      // A body's serverId decides access, before the schema: its wrong types are walked in their own test below.
      for (const field of fieldsOf(route).filter((f) => f.path.join('.') !== 'serverId')) {
        const name = field.path.join('.');
        // POST /logs reads null as "not sent" (the default level, type and resource): not a wrong type there.
        for (const wrong of wrongValues(field.schema).filter((value) => route.schema || value !== null)) {
          const response = await send(withValue(route.sample, field.path, wrong));
          const what = `${route.route} ${name}=${JSON.stringify(wrong)}`;
          expect(response.statusCode, `${what}: ${response.body}`).toBe(400);
          const error = response.json<{ error: string }>().error;
          const own = field.path[field.path.length - 1]!;
          // POST /logs names the field as sent (`[3].level`, docs/INGESTION.md); schema refusals in a sentence.
          if (route.schema) expect(namesField(error, own), `${what}: ${error}`).toBe(true);
          else expect(error, what).toContain(own);
          expect(isRawValidatorText(error), `${what}: ${error}`).toBe(false);
          if (route.schema) expect(stoppedAtSchema(response), what).toBe(true);
          refusals += 1;
        }
      }
      const unknown = await send({ ...route.sample, unexpected_field: 'x' });
      expect(unknown.statusCode, `${route.route} unknown field: ${unknown.body}`).toBe(400);
      expect(unknown.json().error).toBe(route.schema ? 'Unknown field: unexpected_field.' : "Invalid field 'unexpected_field': is not an allowed field");
      if (route.schema) expect(stoppedAtSchema(unknown)).toBe(true);
      refusals += 1;
    }
    expect(refusals).toBeGreaterThan(60);
    expect(await state()).toBe(before);
  });

  it('the reported cases: an array name creates no server, numbers and booleans are not strings', async () => {
    const auth = bearer(owner.token);
    const servers = async () => (await aio.inject({ method: 'GET', url: '/api/auth/me', headers: auth })).json<{ servers: unknown[] }>().servers.length;
    const count = await servers();
    const coerced = await aio.inject({ method: 'POST', url: '/api/server/servers', headers: auth, payload: { name: ['Coerced'] } });
    expect(coerced.statusCode).toBe(400);
    expect(coerced.json().error).toBe('Server name must be text.');
    expect(await servers()).toBe(count);
    const cases: [string, string, Record<string, unknown>][] = [
      ['POST', '/api/auth/register', { username: 12345, password: 'long-enough-1', email: 'n@example.test' }],
      ['PATCH', '/api/settings/server-name', { serverId: server.id, newName: 123 }],
      ['PATCH', '/api/user/username', { username: 123456 }],
      ['PATCH', '/api/user/email', { email: true }],
      ['POST', '/api/auth/forgot-password', { email: 42 }],
    ];
    for (const [verb, url, payload] of cases) {
      const response = await aio.inject({ method: verb as InjectOptions['method'], url, headers: auth, payload });
      expect(response.statusCode, `${verb} ${url}`).toBe(400);
      expect(response.json().error).toMatch(/^(Username|Server name|E-mail address) must be text\.$/);
    }
  });

  it('refuse a JSON body that is not valid UTF-8 with a 400, on every route, storing nothing', async () => {
    const before = await state();
    const invalid = Buffer.from([0xff, 0xfe]);
    for (const route of await bodyRoutes()) {
      // The sample with its first string field's text followed by two bytes that are not UTF-8.
      const json = JSON.stringify(route.sample);
      const at = json.indexOf('":"') + 3;
      const payload = Buffer.concat([Buffer.from(json.slice(0, at)), invalid, Buffer.from(json.slice(at))]);
      const response = await aio.inject({ method: method(route), url: route.url, headers: { ...route.headers, 'content-type': 'application/json' }, payload });
      expect(response.statusCode, `${route.route}: ${response.body}`).toBe(400);
      expect(response.json().error).toBe('Request body is not valid UTF-8');
    }
    // The same text as valid UTF-8 is stored as sent: the refusal is about the bytes, not the characters.
    const valid = await aio.inject({ method: 'POST', url: '/api/logs', headers: { 'x-api-key': server.api_key, 'content-type': 'application/json' }, payload: Buffer.from('{"message":"café 🎮 \\u00ff"}') });
    expect(valid.statusCode).toBe(201);
    let messages: string[] = [];
    await waitFor(async () => {
      messages = (await aio.inject({ method: 'GET', url: `/api/logs/my?serverId=${server.id}`, headers: bearer(owner.token) })).json<{ message: string }[]>().map((log) => log.message);
      return messages.length > 0;
    }, 'the valid log to be stored');
    expect(messages).toEqual(['café 🎮 ÿ']);
    expect(JSON.parse(before)[0]).toBe(JSON.parse(await state())[0]);
  });

  it('a server id of the wrong type in the body names no server: 404 before the schema, changing nothing', async () => {
    const before = await state();
    const routes = (await bodyRoutes()).filter((route) => route.schema?.properties?.['serverId']);
    expect(routes.map((route) => route.route).sort()).toEqual([
      'PATCH /api/settings/server-name',
      'POST /api/alerts',
      'POST /api/billing/create-checkout-session',
      'POST /api/billing/create-portal-session',
      'POST /api/cases',
      'POST /api/manage/add-user',
      'POST /api/saved-searches',
      'POST /api/webhooks',
    ]);
    for (const route of routes) {
      for (const wrong of wrongValues(route.schema?.properties?.['serverId'])) {
        const what = `${route.route} serverId=${JSON.stringify(wrong)}`;
        const response = await aio.inject({ method: method(route), url: route.url, headers: route.headers, payload: withValue(route.sample, ['serverId'], wrong) });
        expect(response.statusCode, `${what}: ${response.body}`).toBe(404);
        expect(response.json().error, what).toBe('Server not found.');
        expect(stoppedAtSchema(response), what).toBe(false);
      }
    }
    expect(await state()).toBe(before);
  });
});
