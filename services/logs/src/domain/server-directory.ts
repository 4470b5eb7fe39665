/**
 * What the logs service reads from the identity read model (@skald/service-kit, built from identity
 * events in the service's own store): a member's role (the routes' requireServerRole guards), a
 * server's tier and suspension, and whether a session was revoked (live tails re-check it while open). Named as a narrow slice so domain code and tests depend on no more.
 */
import { tierOf } from '@skald/contracts';
import type { Tier } from '@skald/contracts';
import type { IdentityReadModel, ServerView } from '@skald/service-kit';

export type ServerDirectory = Pick<IdentityReadModel, 'roleOf' | 'server' | 'isRevoked' | 'emailOf'>;

/** The server's tier; an unknown server (read model not caught up yet) counts as free, which never grants more. */
export function tierOfView(server: Pick<ServerView, 'tier'> | null): Tier {
  return tierOf(server?.tier ?? 'free');
}

export async function tierOfServer(directory: ServerDirectory, serverId: string): Promise<Tier> {
  return tierOfView(await directory.server(serverId));
}
