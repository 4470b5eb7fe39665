/**
 * Server role checks inside the auth service, against its own (authoritative) memberships:
 * owner > admin > user; a non-member gets 404 exactly as for a server that does not exist.
 */
import type { ServerRole } from '@skald/contracts';
import { HttpError, ROLE_TOO_LOW, SERVER_NOT_FOUND, roleAtLeast } from '@skald/service-kit';
import type { AuthStore, MembershipDoc, ServerDoc } from './store.ts';
import { membershipId } from './store.ts';

export interface ServerAccess {
  readonly server: ServerDoc;
  readonly membership: MembershipDoc;
}

export async function requireServerAccess(store: AuthStore, userId: string, serverId: string, minRole: ServerRole): Promise<ServerAccess> {
  const membership = await store.memberships.findOne({ _id: membershipId(serverId, userId) });
  const server = membership === null ? null : await store.servers.findOne({ _id: serverId });
  if (membership === null || server === null) throw new HttpError(404, SERVER_NOT_FOUND);
  if (!roleAtLeast(membership.role, minRole)) throw new HttpError(403, ROLE_TOO_LOW);
  return { server, membership };
}
