// Calls to a running Skald's /api from the walkthrough itself (set-up through the API, not the screens):
// one client, so every block asks the same way and a refused set-up call fails with what it answered.
import { expect } from 'vitest';

export interface ApiAnswer {
  status: number;
  /** The parsed JSON answer, `{}` for an empty one. */
  body: Record<string, unknown>;
}

export interface ApiCallOptions {
  token?: string | null;
  body?: unknown;
}

export interface WalkthroughApi {
  readonly baseUrl: string;
  /** Any answer, as it came. */
  call(method: string, path: string, options?: ApiCallOptions): Promise<ApiAnswer>;
  /** A 2xx answer's body; any other answer fails the test, naming the call and the answer. */
  ok<T = Record<string, unknown>>(method: string, path: string, options?: ApiCallOptions): Promise<T>;
}

function parseAnswer(text: string): Record<string, unknown> {
  if (!text) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { text };
  }
}

export function apiAt(baseUrl: string): WalkthroughApi {
  const call = async (method: string, path: string, { token, body }: ApiCallOptions = {}): Promise<ApiAnswer> => {
    const headers: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' };
    if (token) headers['Authorization'] = `Bearer ${token}`;
    const res = await fetch(`${baseUrl}/api${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    return { status: res.status, body: parseAnswer(text) };
  };
  return {
    baseUrl,
    call,
    async ok<T>(method: string, path: string, options?: ApiCallOptions): Promise<T> {
      const answer = await call(method, path, options);
      expect(answer.status, `${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      return answer.body as T;
    },
  };
}

export interface Account {
  username: string;
  password: string;
  email?: string;
}

/** Registers the account (e-mail `<username>@example.com` unless given) and signs it in: its access token. */
export async function signUp(api: WalkthroughApi, account: Account): Promise<string> {
  await api.ok('POST', '/auth/register', { body: { username: account.username, email: account.email ?? `${account.username}@example.com`, password: account.password } });
  return signIn(api, account);
}

export async function signIn(api: WalkthroughApi, account: Account): Promise<string> {
  const { token } = await api.ok<{ token: string }>('POST', '/auth/login', { body: { username: account.username, password: account.password } });
  return token;
}

export interface CreatedServer {
  id: string;
  name: string;
  api_key: string;
}

export function createServer(api: WalkthroughApi, token: string, name: string): Promise<CreatedServer> {
  return api.ok<CreatedServer>('POST', '/server/servers', { token, body: { name } });
}

/** Adds the account with `email` to the server with `role`, waiting until the server knows the account. */
export async function addMember(api: WalkthroughApi, ownerToken: string, serverId: string, email: string, role: 'user' | 'admin' | 'owner'): Promise<void> {
  await waitFor(async () => (await api.call('POST', '/manage/add-user', { token: ownerToken, body: { serverId, email, role } })).status === 201, `${email} to join as ${role}`);
}

/** Polls `check` every 200 ms until it holds; fails naming `what` after `ms`. */
export async function waitFor(check: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}
