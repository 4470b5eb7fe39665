import type { ServerListItem, SessionAnswer } from '@skald/contracts/api';
import { useCallback } from 'react';
import { useStore } from 'react-redux';
import { useNavigate } from 'react-router';
import { apiSlice } from '../../app/api.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import type { AppDispatch } from '../../app/store.ts';
import { loggedOut, serverSelected, sessionLost, tokenReceived } from '../../app/sessionSlice.ts';
import { requestLogout } from '../../app/sessionCalls.ts';
import { clearAllStored, readStored, STORAGE_KEYS } from '../../app/storage.ts';
import { currentToken } from '../../app/tokenRenewal.ts';

/**
 * Current server rule (docs/spec/part-1.txt section 4): the stored serverId if it is still in the user's
 * list, else the first server; null when the user has none.
 */
export function pickCurrentServer<S extends Pick<ServerListItem, 'id'>>(servers: readonly S[], storedId: string | null): S | null {
  return servers.find((s) => s.id === storedId) ?? servers[0] ?? null;
}

/** Stores the token and the current server after a full login or a 2FA login. */
export function completeSignIn(dispatch: AppDispatch, { token, servers }: SessionAnswer): void {
  dispatch(tokenReceived(token));
  const chosen = pickCurrentServer(servers, readStored(STORAGE_KEYS.serverId));
  if (chosen) dispatch(serverSelected({ id: chosen.id, name: chosen.name }));
  // Data cached for a previous account must never show for this one.
  dispatch(apiSlice.util.resetApiState());
}

/**
 * Forget everything this browser knows about the session. `lost` marks a session that ended on
 * its own (rejected token, current user not loadable): the token guard then sends to /login.
 */
export function endSession(dispatch: AppDispatch, lost = false): void {
  clearAllStored();
  dispatch(lost ? sessionLost() : loggedOut());
  dispatch(apiSlice.util.resetApiState());
}

/**
 * Log out clears all local storage and goes to / (docs/spec/part-1.txt section 2), and revokes the token
 * on the server, so a copy of it stops working at once rather than at its expiry. This tab signs out
 * first and does not wait: a server that is down or slow never keeps anyone signed in.
 */
export function useLogout(): () => void {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const store = useStore();
  return useCallback(() => {
    const token = currentToken(store);
    endSession(dispatch);
    navigate('/');
    if (token) void requestLogout(token);
  }, [dispatch, navigate, store]);
}
