import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { readStored, STORAGE_KEYS } from './storage.ts';

// Signed-in state is decided by the presence of the stored token (docs/spec/part-1.txt section 2).
export interface SessionState {
  token: string | null;
  serverId: string | null;
  serverName: string | null;
  /** Set when the session ended without the user asking (docs/spec/part-1.txt section 4 session loss): guards send to /login. */
  lost?: boolean;
}

export function initialSessionState(): SessionState {
  return {
    token: readStored(STORAGE_KEYS.token),
    serverId: readStored(STORAGE_KEYS.serverId),
    serverName: readStored(STORAGE_KEYS.serverName),
  };
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    tokenReceived(state, action: PayloadAction<string>) {
      state.token = action.payload;
      state.lost = false;
    },
    serverSelected(state, action: PayloadAction<{ id: string; name: string }>) {
      state.serverId = action.payload.id;
      state.serverName = action.payload.name;
    },
    serverCleared(state) {
      state.serverId = null;
      state.serverName = null;
    },
    loggedOut() {
      return { token: null, serverId: null, serverName: null, lost: false };
    },
    sessionLost() {
      return { token: null, serverId: null, serverName: null, lost: true };
    },
  },
});

export const { tokenReceived, serverSelected, serverCleared, loggedOut, sessionLost } = sessionSlice.actions;
