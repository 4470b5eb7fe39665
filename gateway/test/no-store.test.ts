/**
 * Every answer that carries a token or a secret is sent with Cache-Control: no-store.
 * The routes are found in the generated OpenAPI document (a 2xx answer schema with a secret field: the
 * same rule the service kit applies), must be exactly the ones the issue names, and each is called for
 * real through the all-in-one process: sign-in with and without 2FA, refresh, password change, 2FA
 * setup/verify/disable, server creation and API-key reset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { answerCarriesSecret } from '@skald/service-kit';
import { bearer, startAllInOne, TEST_PASSWORD } from './support/all-in-one.ts';
import type { AllInOne } from './support/all-in-one.ts';

type OpenApi = { readonly paths: Record<string, Record<string, { readonly responses?: Record<string, { readonly content?: Record<string, { readonly schema?: unknown }> }> }>> };

const SECRET_ANSWERS = [
  'POST /api/auth/login',
  'POST /api/auth/2fa-login',
  'POST /api/auth/refresh',
  'PATCH /api/user/password',
  'GET /api/2fa/setup',
  'POST /api/2fa/verify',
  'DELETE /api/2fa/disable',
  'POST /api/server/servers',
  'POST /api/settings/api-key/reset',
  // A generic webhook's signing secret, answered once.
  'POST /api/webhooks',
  'PUT /api/webhooks/{id}',
];

let aio: AllInOne;

beforeAll(async () => {
  aio = await startAllInOne({ logLevel: 'silent' });
});

afterAll(async () => {
  await aio?.close();
});

const TOTP_PERIOD_SECONDS = 30;
let lastStep = -1;

/**
 * A TOTP code the service accepts (one step of drift either way) that is newer than the last one used:
 * the service refuses replays, and this test uses three codes within a few seconds.
 */
function nextCode(secret: string): Promise<string> {
  const current = Math.floor(Date.now() / 1000 / TOTP_PERIOD_SECONDS);
  const step = Math.max(current - 1, lastStep + 1);
  lastStep = step;
  return generate({ secret, epoch: step * TOTP_PERIOD_SECONDS + 1 });
}

describe('answers carrying a token or a secret', () => {
  it('are exactly the login, 2FA, refresh, password, server creation, key reset and webhook save answers', async () => {
    const doc = (await aio.inject({ method: 'GET', url: '/api/openapi.json' })).json<OpenApi>();
    const found = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => {
          const answers = Object.fromEntries(Object.entries(operation.responses ?? {}).map(([status, answer]) => [status, answer.content?.['application/json']?.schema]));
          return answerCarriesSecret(answers);
        })
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(found.sort()).toEqual([...SECRET_ANSWERS].sort());
  });

  it('are sent with Cache-Control: no-store, each called for real', async () => {
    const checked = new Set<string>();
    const noStore = (route: string, response: LightMyRequestResponse, status = 200) => {
      expect(response.statusCode, `${route}: ${response.body}`).toBe(status);
      expect(response.headers['cache-control'], route).toBe('no-store');
      checked.add(route);
      return response.json<Record<string, string>>();
    };

    const { token: first, username } = await aio.signUp('no_store_user');
    const login = noStore('POST /api/auth/login', await aio.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password: TEST_PASSWORD } }));
    expect(login['token']).toBeTruthy();
    const refreshed = noStore('POST /api/auth/refresh', await aio.inject({ method: 'POST', url: '/api/auth/refresh', headers: bearer(first) }));
    const changed = noStore(
      'PATCH /api/user/password',
      await aio.inject({ method: 'PATCH', url: '/api/user/password', headers: bearer(refreshed['token']!), payload: { currentPassword: TEST_PASSWORD, newPassword: 'a-new-password-1' } }),
    );
    let token = changed['token']!;
    const server = noStore('POST /api/server/servers', await aio.inject({ method: 'POST', url: '/api/server/servers', headers: bearer(token), payload: { name: 'No store' } }), 201);
    expect(server['api_key']).toBeTruthy();
    const reset = noStore('POST /api/settings/api-key/reset', await aio.inject({ method: 'POST', url: `/api/settings/api-key/reset?serverId=${server['id']}`, headers: bearer(token) }));
    expect(reset['apiKey']).toBeTruthy();
    // Every answer of the webhook routes carries the header, refusals included (a free server has no webhooks).
    noStore('POST /api/webhooks', await aio.inject({ method: 'POST', url: '/api/webhooks', headers: bearer(token), payload: { serverId: server['id'], url: 'http://10.0.0.1/hook', platform: 'generic' } }), 400);
    noStore('PUT /api/webhooks/{id}', await aio.inject({ method: 'PUT', url: '/api/webhooks/no-such-webhook', headers: bearer(token), payload: { url: 'http://10.0.0.1/hook', platform: 'generic' } }), 404);

    const setup = noStore('GET /api/2fa/setup', await aio.inject({ method: 'GET', url: '/api/2fa/setup', headers: bearer(token) }));
    const secret = setup['secret']!;
    noStore('POST /api/2fa/verify', await aio.inject({ method: 'POST', url: '/api/2fa/verify', headers: bearer(setup['token']!), payload: { token: await nextCode(secret) } }));
    // With 2FA on, login answers a pre_token: the same route, still no-store.
    const pre = await aio.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password: 'a-new-password-1' } });
    expect(pre.headers['cache-control']).toBe('no-store');
    const preToken = pre.json<{ pre_token: string }>().pre_token;
    expect(preToken).toBeTruthy();
    const session = noStore('POST /api/auth/2fa-login', await aio.inject({ method: 'POST', url: '/api/auth/2fa-login', payload: { token: preToken, code: await nextCode(secret) } }));
    token = session['token']!;
    noStore('DELETE /api/2fa/disable', await aio.inject({ method: 'DELETE', url: '/api/2fa/disable', headers: bearer(token), payload: { token: await nextCode(secret) } }));

    expect([...checked].sort()).toEqual([...SECRET_ANSWERS].sort());
    // Answers without a secret keep the default caching rules (the header is not sprayed everywhere).
    const me = await aio.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(login['token']!) });
    expect(me.headers['cache-control']).toBeUndefined();
    // Fifteen real calls in a row, five of them hashing a password, through one whole all-in-one: with two test
    // runs and benchmarks on 2 cores (load 23) the calls took over the default 30 s.
  }, 120_000);
});
