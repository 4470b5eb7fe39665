/**
 * Answer shapes shared by several routes (docs/spec/part-1.txt and part-2.txt, section 3 of each), typed by the identity API contract.
 * Built field by field: the routes' response schemas refuse anything they do not list.
 */
import type { ServerList, ServerListItem, UserView } from '@skald/contracts/api';
import type { AuthStore, UserDoc } from './store.ts';

/** The user's servers with the user's role on each, oldest membership first. */
export async function serversOfUser(store: Pick<AuthStore, 'memberships' | 'servers'>, userId: string): Promise<ServerList> {
  const memberships = await store.memberships.find({ userId }, { sort: { createdAt: 1 } });
  if (memberships.length === 0) return [];
  const servers = await store.servers.find({ _id: { $in: memberships.map((m) => m.serverId) } });
  const byId = new Map(servers.map((s) => [s._id, s]));
  const items: ServerListItem[] = [];
  for (const m of memberships) {
    const server = byId.get(m.serverId);
    if (server !== undefined) items.push({ id: server._id, name: server.name, role: m.role });
  }
  return items;
}

export function userView(user: UserDoc): UserView {
  return {
    id: user._id,
    username: user.username,
    email: user.email,
    role: user.siteRole,
    two_factor_enabled: user.twoFactorEnabled,
  };
}
