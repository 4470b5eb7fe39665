/**
 * No credential reaches a log line, and error lines say what went wrong. The all-in-one app (gateway and
 * every service) with a captured log stream at trace level receives:
 *  - EVERY route of the generated OpenAPI document, and unknown API and browser paths, with every
 *    credential parameter name of the one URL rule (SECRET_PARAM_NAMES) in the query;
 *  - each route that really takes a credential in its URL (found in the OpenAPI document: query
 *    parameters with a credential name, plus the deprecated ?apiKey= of the public ingestion routes)
 *    with a real credential (a signed photo URL's ?t= answers 200, ?apiKey= answers 201) and a wrong one
 *    (404 / 401);
 *  - a real access token tried as ?jwt= (refused), a reset link /reset-password/<token> (SPA fallback);
 *  - secrets in Authorization, X-API-Key, Cookie and password fields, a 413, a 500;
 * and no captured line contains a credential. Error lines (a 500, a refused request) carry the real
 * message and stack.
 */
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import sharp from 'sharp';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { SECRET_PARAM_NAMES } from '@skald/service-kit';
import { waitFor } from '@skald/testing';
import { bearer, multipartForm, startAllInOne } from '../gateway/test/support/all-in-one.ts';
import type { AllInOne } from '../gateway/test/support/all-in-one.ts';

const SECRET = 'SECRETs3cr3tVALUE';
const secretHeaders = { authorization: `Bearer ${SECRET}`, 'x-api-key': SECRET, cookie: `session=${SECRET}` };

/** The deprecated key parameter of the public ingestion API: read by its routes, not declared in their schemas. */
const INGESTION_KEY_ROUTES = ['POST /api/logs', 'POST /api/photologs'];

let aio: AllInOne;

beforeAll(async () => {
  aio = await startAllInOne({
    logLevel: 'trace',
    withWebApp: true,
    extraRoutes: (running) => {
      // Test-only routes outside /api's service scopes: a 200 that logs its body and headers, and a 500.
      running.app.post('/test/echo', async (request) => {
        request.log.info({ body: request.body, headers: request.headers }, 'echo');
        return { ok: true };
      });
      running.app.get('/test/boom', async () => {
        throw new Error(`failure while handling apiKey=${SECRET}`);
      });
    },
  });
});

afterAll(async () => {
  await aio?.close();
});

type Operation = { readonly parameters?: readonly { readonly in: string; readonly name: string }[] };
type OpenApi = { readonly paths: Record<string, Record<string, Operation>> };

async function documentedRoutes(): Promise<{ method: string; path: string; operation: Operation }[]> {
  const doc = (await aio.inject({ method: 'GET', url: '/api/openapi.json' })).json<OpenApi>();
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

const credentialNames: ReadonlySet<string> = new Set(SECRET_PARAM_NAMES.map((name) => name.toLowerCase()));
const everyCredentialParameter = SECRET_PARAM_NAMES.map((name) => `${name}=${SECRET}`).join('&');

function concrete(path: string): string {
  return path.replace(/\{[^}]+\}/g, 'x0000000001');
}

function leaks(needles: readonly string[]): string[] {
  return aio.lines.filter((line) => needles.some((needle) => line.includes(needle)));
}

async function linesOf(response: LightMyRequestResponse): Promise<Record<string, unknown>[]> {
  const reqId = response.headers['x-request-id'];
  return aio.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['reqId'] === reqId);
}

describe('log redaction (all-in-one)', () => {
  it('never logs a credential sent in the query of any route, known or not', async () => {
    const routes = await documentedRoutes();
    expect(routes.length).toBeGreaterThan(30);
    const statuses = new Set<number>();
    const send = async (options: InjectOptions) => {
      const response = await aio.inject(options);
      statuses.add(response.statusCode);
      return response;
    };
    for (const { method, path } of routes) {
      await send({ method: method as InjectOptions['method'], url: `${concrete(path)}?${everyCredentialParameter}`, headers: secretHeaders });
    }
    for (const url of ['/api/does-not-exist', '/api/logs/my/unknown', '/some/page', '/reset-password/x']) {
      await send({ method: 'GET', url: `${url}?${everyCredentialParameter}` });
      await send({ method: 'POST', url: `${url}?${everyCredentialParameter}`, payload: { password: SECRET } });
    }
    expect([...statuses]).toEqual(expect.arrayContaining([200, 400, 401, 404]));
    expect(aio.lines.join('\n')).toContain('t=[REDACTED]');
    expect(leaks([SECRET])).toEqual([]);
  });

  it('never logs a real credential of a route that takes one in its URL, accepted or refused', async () => {
    const routes = await documentedRoutes();
    const declared = routes
      .filter(({ operation }) => (operation.parameters ?? []).some((p) => p.in === 'query' && credentialNames.has(p.name.toLowerCase())))
      .map(({ method, path }) => `${method} ${path}`);
    // The routes whose schema reads a credential from the query: today the signed photo URL.
    expect(declared).toEqual(['GET /api/photologs/image/{id}']);
    const all = routes.map(({ method, path }) => `${method} ${path}`);
    for (const route of INGESTION_KEY_ROUTES) expect(all).toContain(route);

    const owner = await aio.signUp('redaction_owner');
    const server = await aio.createServer(owner.token, 'Redaction server');
    const key = server.api_key;

    // ?apiKey= accepted (201) and refused (401) on both ingestion routes.
    expect((await aio.inject({ method: 'POST', url: `/api/logs?apiKey=${encodeURIComponent(key)}`, payload: { message: 'hello' } })).statusCode).toBe(201);
    expect((await aio.inject({ method: 'POST', url: `/api/logs?apiKey=${SECRET}`, payload: { message: 'hello' } })).statusCode).toBe(401);
    const jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#c33' } }).jpeg().toBuffer();
    const photo = multipartForm([{ name: 'photo', filename: 'p.jpg', type: 'image/jpeg', data: jpeg }, { name: 'message', value: 'a photo' }]);
    const stored = await aio.inject({ method: 'POST', url: `/api/photologs?apiKey=${encodeURIComponent(key)}`, ...photo });
    expect(stored.statusCode, stored.body).toBe(201);
    expect((await aio.inject({ method: 'POST', url: `/api/photologs?apiKey=${SECRET}`, ...photo })).statusCode).toBe(401);

    // The signed photo URL: accepted (200) with its real ?t=, refused (404) with a wrong one.
    let imagePath = '';
    await waitFor(async () => {
      const page = await aio.inject({ method: 'GET', url: `/api/photologs/my?serverId=${server.id}`, headers: bearer(owner.token) });
      imagePath = (page.json() as { photologs: { image_path: string | null }[] }).photologs[0]?.image_path ?? '';
      return imagePath !== '';
    }, 'the photo log to be stored');
    const url = imagePath.startsWith('/api/') ? imagePath : `/api${imagePath}`;
    const signature = new URL(url, 'http://x').searchParams.get('t')!;
    expect(signature.length).toBeGreaterThan(10);
    const image = await aio.inject({ method: 'GET', url });
    expect(image.statusCode).toBe(200);
    expect((await linesOf(image)).map((line) => (line['req'] as { url?: string } | undefined)?.url).filter(Boolean)).toEqual([
      `${url.split('?')[0]}?t=[REDACTED]`,
    ]);
    const wrong = await aio.inject({ method: 'GET', url: url.replace(/t=[^&]+/, `t=${SECRET}`) });
    expect(wrong.statusCode).toBe(404);

    // A real access token tried as ?jwt= is refused, and not logged either.
    const me = await aio.inject({ method: 'GET', url: `/api/auth/me?jwt=${owner.token}` });
    expect(me.statusCode).toBe(401);
    const list = await aio.inject({ method: 'GET', url: `/api/logs/my?serverId=${server.id}&jwt=${owner.token}` });
    expect(list.statusCode).toBe(401);

    // The reset link a user opens in the browser (the SPA fallback answers it).
    const reset = await aio.inject({ method: 'GET', url: `/reset-password/${SECRET}` });
    expect(reset.statusCode).toBe(200);

    const tokenSignature = owner.token.split('.')[2]!;
    expect(leaks([SECRET, key, signature, tokenSignature])).toEqual([]);
  });

  it('never logs a secret from headers or bodies, on a 200, a 401, a 413 and a 500', async () => {
    const statuses: number[] = [];
    const send = async (options: InjectOptions) => {
      statuses.push((await aio.inject(options)).statusCode);
    };
    await send({ method: 'POST', url: `/test/echo?apiKey=${SECRET}`, headers: secretHeaders, payload: { password: SECRET, newPassword: SECRET, token: SECRET, code: SECRET } });
    await send({ method: 'POST', url: `/api/auth/login?apiKey=${SECRET}`, headers: secretHeaders, payload: { username: 'nobody', password: SECRET } });
    await send({ method: 'POST', url: `/api/logs?apiKey=${SECRET}`, headers: secretHeaders, payload: { message: 'hello' } });
    await send({ method: 'GET', url: '/api/auth/me', headers: secretHeaders });
    await send({ method: 'POST', url: `/api/auth/login?apiKey=${SECRET}`, headers: { ...secretHeaders, 'content-type': 'application/json' }, payload: JSON.stringify({ password: SECRET, pad: 'x'.repeat(1_200_000) }) });
    await send({ method: 'GET', url: `/test/boom?apiKey=${SECRET}`, headers: secretHeaders });
    expect(statuses).toEqual([200, 401, 401, 401, 413, 500]);
    expect(aio.lines.join('\n')).toContain('"password":"[REDACTED]"');
    expect(leaks([SECRET])).toEqual([]);
  });

  it('writes the real message and stack of a 500 and of a refused request', async () => {
    const failed = await aio.inject({ method: 'GET', url: '/test/boom' });
    expect(failed.statusCode).toBe(500);
    const failure = (await linesOf(failed)).find((line) => line['msg'] === 'request failed')!['err'] as Record<string, string>;
    expect(failure['type']).toBe('Error');
    expect(failure['message']).toBe('failure while handling apiKey=[REDACTED]');
    expect(failure['stack']).toMatch(/^Error: failure while handling apiKey=\[REDACTED\]\n\s+at /);
    expect(failure['stack']).toContain('log-redaction.test.ts');

    const refused = await aio.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"username":' });
    expect(refused.statusCode).toBe(400);
    const refusal = (await linesOf(refused)).find((line) => line['msg'] === 'request refused')!['err'] as Record<string, string>;
    expect(refusal['errorCode']).toBe('FST_ERR_CTP_INVALID_JSON_BODY');
    expect(refusal['message']).toMatch(/JSON/);
    expect(refusal['stack']).toMatch(/\n\s+at /);
    expect(aio.lines.join('\n')).not.toContain('[object Object]');
  });
});
