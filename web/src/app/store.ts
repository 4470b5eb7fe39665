import { configureStore } from '@reduxjs/toolkit';
import { apiSlice } from './api.ts';
import { sessionSlice, type SessionState } from './sessionSlice.ts';
import { STORAGE_KEYS, writeStored } from './storage.ts';

export function makeStore(preloadedSession?: SessionState) {
  const store = configureStore({
    reducer: {
      session: sessionSlice.reducer,
      [apiSlice.reducerPath]: apiSlice.reducer,
    },
    middleware: (getDefault) => getDefault().concat(apiSlice.middleware),
    preloadedState: preloadedSession ? { session: preloadedSession } : undefined,
  });
  // Keep token and current server in local storage, the spec's source of truth across reloads.
  let last = store.getState().session;
  store.subscribe(() => {
    const next = store.getState().session;
    if (next === last) return;
    if (next.token !== last.token) writeStored(STORAGE_KEYS.token, next.token);
    if (next.serverId !== last.serverId) writeStored(STORAGE_KEYS.serverId, next.serverId);
    if (next.serverName !== last.serverName) writeStored(STORAGE_KEYS.serverName, next.serverName);
    last = next;
  });
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
