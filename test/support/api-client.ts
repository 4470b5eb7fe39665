/** Tiny JSON client for the spec's API (used by the cross-process tests). */

export interface ApiResponse<T = unknown> {
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
}

export async function api<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    // A bound so a hung request fails its test with a message, not a limit on how slow a loaded machine may
    // be: with two test runs on the 2-core machine a cold process's first register took over 10 s.
    signal: AbortSignal.timeout(25_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: response.status, body: body as T, headers: response.headers };
}

export const TEST_PASSWORD = 'Vq7#mZ2!pL9x-Rt4wK';

/** Registers and logs in a user; returns the access token. */
export async function registerAndLogin(baseUrl: string, username: string): Promise<string> {
  const registered = await api(baseUrl, 'POST', '/api/auth/register', {
    body: { username, email: `${username}@example.test`, password: TEST_PASSWORD },
  });
  if (registered.status >= 300) throw new Error(`register failed: ${registered.status} ${JSON.stringify(registered.body)}`);
  return login(baseUrl, username);
}

export async function login(baseUrl: string, username: string): Promise<string> {
  const response = await api<{ token?: string }>(baseUrl, 'POST', '/api/auth/login', { body: { username, password: TEST_PASSWORD } });
  if (response.status !== 200 || !response.body.token) throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.token;
}

export async function createServer(baseUrl: string, token: string, name: string): Promise<{ id: string; api_key: string }> {
  const response = await api<{ id: string; api_key: string }>(baseUrl, 'POST', '/api/server/servers', { token, body: { name } });
  if (response.status >= 300) throw new Error(`create server failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}
