import type { AdminServerUsers, ServerRole } from '@skald/contracts/api';

/**
 * The server's members after a role change auth accepted (docs/spec/part-2.txt sections 2, 6): the member gets the role, and
 * giving the owner role makes the previous owner an admin. The admin area's list comes from a read model
 * that follows auth a moment later, so the screen applies the known outcome rather than refetch at once
 * (a refetch could still answer the old roles); the owner stays listed first, as the server lists it.
 */
export function withMemberRole(list: AdminServerUsers, userId: string, role: ServerRole): AdminServerUsers {
  const users = list.users.map((u) => {
    if (u.id === userId) return { ...u, role };
    if (role === 'owner' && u.role === 'owner') return { ...u, role: 'admin' as const };
    return u;
  });
  const owners = users.filter((u) => u.role === 'owner');
  return { ...list, users: [...owners, ...users.filter((u) => u.role !== 'owner')] };
}
