/**
 * What the logs service needs to know about servers and memberships. In production this is the identity
 * read model from @skald/service-kit (built from identity events in the service's own store); tests pass
 * a plain object. Kept as a small interface so route and consumer code do not depend on how it is built.
 */
import { tierOf } from '@skald/contracts';
import type { ServerRole, Tier } from '@skald/contracts';

export type { ServerRole } from '@skald/contracts';

export interface ServerInfo {
  readonly tier: string;
  readonly suspended: boolean;
}

export interface ServerDirectory {
  roleOf(userId: string, serverId: string): Promise<ServerRole | null>;
  server(serverId: string): Promise<ServerInfo | null>;
}

/** The server's tier; an unknown server (read model not caught up yet) counts as free, which never grants more. */
export async function tierOfServer(directory: ServerDirectory, serverId: string): Promise<Tier> {
  const info = await directory.server(serverId);
  return tierOf(info?.tier ?? 'free');
}
