import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { keepOnlyVisibilityStyles } from './visibility-styles.ts';

// findBy*/waitFor give up after 1 s by default. On the 2-core CI machine the web tier runs beside the browser
// tier (a run's web tests took 5 times their time alone): what is waited for stays the same, only how long
// a loaded machine gets to show it.
configure({ asyncUtilTimeout: 15_000 });

keepOnlyVisibilityStyles();

// jsdom lacks a few browser APIs that antd and the app use.
if (typeof window.matchMedia !== 'function') {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}
if (typeof globalThis.ResizeObserver !== 'function') {
  globalThis.ResizeObserver = class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
}

// Node's Request (used by RTK Query) cannot parse '/api/...'; resolve against the jsdom page URL.
const NodeRequest = globalThis.Request;
globalThis.Request = class extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href).href : input, init);
  }
};

// jsdom does not implement getComputedStyle for pseudo-elements, which antd probes.
const computed = window.getComputedStyle.bind(window);
window.getComputedStyle = (elt: Element, pseudo?: string | null) => computed(elt, pseudo ? undefined : pseudo);

// The app fetches antd's message code (toasts) after the first screen (src/app/toast.tsx); in a browser
// that is one cached request, here it is a module graph to transform. Loaded once per file up front, so a
// test's first toast does not pay for it within the test's time limit.
await import('../src/app/ToastHost.tsx');

// Outside a test's mockApi, fetch fails as an unreachable server would, without leaving the process: a
// request still pending when a test ends (a refetch after unstubAllGlobals) otherwise went to the jsdom
// origin, localhost:3000, which the unit tier refuses (test/support/unit-tier-guard.ts).
globalThis.fetch = () => Promise.reject(new TypeError('Failed to fetch (no mockApi handler outside a test)'));

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});
