import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { SessionState } from '../src/app/sessionSlice.ts';
import { makeStore } from '../src/app/store.ts';
import { ThemeProvider } from '../src/app/theme.tsx';

type Handler = (request: Request) => Response | Promise<Response>;

export function json(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), { status: init.status ?? 200, headers: { 'Content-Type': 'application/json', ...init.headers } });
}

/**
 * Stubs fetch with handlers keyed 'METHOD /path' (path after /api, without query). Returns the
 * list of requests seen so tests can assert what the app sent.
 */
export function mockApi(handlers: Record<string, Handler>): Request[] {
  const seen: Request[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(String(input), init);
      seen.push(request);
      const url = new URL(request.url);
      const key = `${request.method} ${url.pathname.replace(/^\/api/, '')}`;
      const handler = handlers[key];
      if (!handler) return json({ error: `no mock for ${key}` }, { status: 404 });
      return handler(request);
    }),
  );
  return seen;
}

export const SIGNED_IN: SessionState = { token: 'test-token', serverId: 's1', serverName: 'Alpha' };

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname}</div>;
}

/** Renders `children` (routes, and whatever probes a test reads) inside the real store and theme and a router at `path`. */
export function renderInApp(children: ReactNode, { path = '/', session }: { path?: string; session?: SessionState } = {}) {
  const store = makeStore(session ?? { token: null, serverId: null, serverName: null });
  const utils = render(
    <Provider store={store}>
      <ThemeProvider>
        <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
      </ThemeProvider>
    </Provider>,
  );
  return { ...utils, store };
}

/** Renders a screen at `path` inside the real store, theme and router, plus a location probe. */
export function renderScreen(element: ReactElement, { path = '/', route = path, session }: { path?: string; route?: string; session?: SessionState } = {}) {
  return renderInApp(
    <>
      <Routes>
        <Route path={route} element={element} />
        <Route path="*" element={<div>elsewhere</div>} />
      </Routes>
      <LocationProbe />
    </>,
    session ? { path, session } : { path },
  );
}
