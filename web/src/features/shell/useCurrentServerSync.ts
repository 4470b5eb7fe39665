import type { ServerList } from '@skald/contracts/api';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { serverCleared, serverSelected } from '../../app/sessionSlice.ts';
import { pickCurrentServer } from '../auth/session.ts';

/**
 * Keeps the stored current server valid against the user's server list: falls back to the
 * first server when the stored one is gone, and keeps the stored name in step (docs/spec/part-1.txt section 4).
 * A link that names a server (`?serverId=`, as an alert notification's link to /logs does) selects it
 * once when the user is a member of it; a server the user cannot see is ignored, so the link shows the
 * stored server instead of another tenant's. Choosing another server afterwards is not undone.
 */
export function useCurrentServerSync(servers: ServerList | undefined): void {
  const dispatch = useAppDispatch();
  const { token, serverId, serverName } = useAppSelector((s) => s.session);
  const [params] = useSearchParams();
  const linkedId = params.get('serverId');
  const appliedLink = useRef<string | null>(null);
  useEffect(() => {
    // Signed out (log out or session loss): a stale server list must not bring a server back.
    if (!token || !servers) return;
    let wanted = serverId;
    if (linkedId !== null && linkedId !== appliedLink.current) {
      appliedLink.current = linkedId;
      if (servers.some((s) => s.id === linkedId)) wanted = linkedId;
    }
    const chosen = pickCurrentServer(servers, wanted);
    if (!chosen) {
      if (serverId !== null) dispatch(serverCleared());
      return;
    }
    if (chosen.id !== serverId || chosen.name !== serverName) {
      dispatch(serverSelected({ id: chosen.id, name: chosen.name }));
    }
  }, [token, servers, serverId, serverName, linkedId, dispatch]);
}
