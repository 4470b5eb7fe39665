/** The data folder (documents, bus journal, outbox) holds no plaintext password, API key or TOTP seed. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, codeAt, createServer, json, registerAndLogin, startHarness, waitFor } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

async function allFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? allFiles(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]))));
  return nested.flat();
}

describe('secrets at rest', () => {
  it('stores no plaintext password, API key or TOTP seed anywhere under the data folder', async () => {
    const user = await registerAndLogin(h);
    const server = await createServer(h, user);
    const reset = json<{ apiKey: string }>(await h.app.inject({ method: 'POST', url: `/settings/api-key/reset?serverId=${server.id}`, headers: bearer(user.token) }));
    const setup = json<{ secret: string }>(await h.app.inject({ method: 'GET', url: '/2fa/setup', headers: bearer(user.token) }));
    h.clock += 30_000;
    expect((await h.app.inject({ method: 'POST', url: '/2fa/verify', headers: bearer(user.token), payload: { token: await codeAt(setup.secret, h.clock) } })).statusCode).toBe(200);
    const newToken = json<{ token: string }>(await h.app.inject({ method: 'POST', url: '/auth/refresh', headers: bearer(json<{ token: string }>(await h.app.inject({ method: 'POST', url: '/auth/2fa-login', payload: { token: json<{ pre_token: string }>(await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: user.username, password: user.password } })).pre_token, code: await codeAt(setup.secret, (h.clock += 30_000)) } })).token) })).token;
    const newPassword = 'second-password-xyz';
    expect((await h.app.inject({ method: 'PATCH', url: '/user/password', headers: bearer(newToken), payload: { currentPassword: user.password, newPassword } })).statusCode).toBe(200);
    await h.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: user.email } });
    await h.service.flushMail();
    await waitFor(() => h.published.some((m) => m.headers['event-type'] === 'user.sessions-revoked.v1'));

    const secrets = [user.password, newPassword, server.api_key, reset.apiKey, setup.secret];
    const files = await allFiles(h.dir);
    expect(files.some((f) => f.endsWith('documents.db'))).toBe(true);
    for (const file of files) {
      const content = (await readFile(file)).toString('latin1');
      for (const secret of secrets) {
        expect({ file, leaked: content.includes(secret) }).toEqual({ file, leaked: false });
      }
    }
    // The stored forms are there (so the scan read the right files).
    const stored = await h.store.users.findOne({ _id: user.id });
    expect(stored?.passwordHash.startsWith('scrypt$')).toBe(true);
    expect(stored?.totpSecretSealed?.startsWith('v1.')).toBe(true);
  });
});
