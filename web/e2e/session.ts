// Session helpers for the walkthrough's session checks: what the browser holds, asking the
// server directly whether a token still works, and opening a second browser context on the same session
// (the spec's signed-in state is the stored token, docs/spec/part-1.txt section 2, so copying it signs the context in).
import type { Page } from 'playwright-core';

export interface StoredSession {
  token: string;
  serverId: string | null;
  serverName: string | null;
}

/** The session the page keeps in local storage; fails when the page is signed out. */
export async function readSession(page: Page): Promise<StoredSession> {
  const stored = await page.evaluate(() => ({
    token: window.localStorage.getItem('token'),
    serverId: window.localStorage.getItem('serverId'),
    serverName: window.localStorage.getItem('serverName'),
  }));
  if (!stored.token) throw new Error(`no token stored at ${page.url()}`);
  return { ...stored, token: stored.token };
}

/** Signs a fresh context's page in with `session` (stored on the landing page, before any app screen loads). */
export async function seedSession(page: Page, session: StoredSession): Promise<void> {
  await page.goto('/');
  await page.evaluate((s) => {
    window.localStorage.setItem('token', s.token);
    if (s.serverId) window.localStorage.setItem('serverId', s.serverId);
    if (s.serverName) window.localStorage.setItem('serverName', s.serverName);
  }, session);
}

/** GET /api/auth/me with `token`, from outside the browser: the server's own word on the token. */
export async function meStatus(baseUrl: string, token: string): Promise<number> {
  const res = await fetch(`${baseUrl}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.status;
}

/**
 * Waits until /api/auth/me answers `status` for `token`. Log out posts its revocation after the tab has
 * signed out (fire and forget), so the server may learn of it a moment after the landing shows.
 */
export async function waitForMeStatus(baseUrl: string, token: string, status: number, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  let last = 0;
  while (Date.now() < deadline) {
    last = await meStatus(baseUrl, token);
    if (last === status) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`GET /api/auth/me with the token answered ${last}, not ${status}, for ${ms} ms`);
}
