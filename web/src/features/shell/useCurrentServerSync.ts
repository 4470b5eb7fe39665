import type { ServerList } from '@skald/contracts/api';
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { serverCleared, serverSelected } from '../../app/sessionSlice.ts';
import { pickCurrentServer } from '../auth/session.ts';

/**
 * Keeps the stored current server valid against the user's server list: falls back to the
 * first server when the stored one is gone, and keeps the stored name in step (spec 000 §4).
 */
export function useCurrentServerSync(servers: ServerList | undefined): void {
  const dispatch = useAppDispatch();
  const { token, serverId, serverName } = useAppSelector((s) => s.session);
  useEffect(() => {
    // Signed out (log out or session loss): a stale server list must not bring a server back.
    if (!token || !servers) return;
    const chosen = pickCurrentServer(servers, serverId);
    if (!chosen) {
      if (serverId !== null) dispatch(serverCleared());
      return;
    }
    if (chosen.id !== serverId || chosen.name !== serverName) {
      dispatch(serverSelected({ id: chosen.id, name: chosen.name }));
    }
  }, [token, servers, serverId, serverName, dispatch]);
}
