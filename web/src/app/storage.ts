// Everything the app keeps in the browser (docs/spec/part-1.txt section 3 "Stored locally").
// Wrapped so a disabled or full localStorage never breaks rendering.
export const STORAGE_KEYS = {
  token: 'token',
  serverId: 'serverId',
  serverName: 'serverName',
  theme: 'theme',
  /** /logs as cards (the default) or as the dense table. */
  logDisplay: 'logDisplay',
} as const;

type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

export function readStored(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: StorageKey, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Private mode or quota: the in-memory state still works for this tab.
  }
}

/** Log out and session loss clear all local storage (docs/spec/part-1.txt sections 2 "Shell" and 4). */
export function clearAllStored(): void {
  try {
    window.localStorage.clear();
  } catch {
    // nothing stored that we could clear
  }
}
