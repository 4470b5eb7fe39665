import { useMeQuery } from '../auth/authApi.ts';
import { roleMayOpen } from '../shell/navigation.ts';

/** True when the signed-in member is an owner or admin of the server: they open, change and delete cases. */
export function useCaseWriter(serverId: string | null | undefined): boolean {
  const me = useMeQuery(undefined, { skip: !serverId });
  const role = me.data?.servers.find((server) => server.id === serverId)?.role;
  return roleMayOpen(role, 'admin');
}
