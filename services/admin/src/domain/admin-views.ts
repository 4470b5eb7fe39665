/** The admin area's read model in the API's shapes (docs/spec/part-2.txt section 3; @skald/contracts/api admin.ts). */
import { DEFAULT_SITE_ROLE, siteRoleFrom, tierOf } from '@skald/contracts';
import type { AdminServerDetail, AdminServerList, AdminServerSummary, AdminUser } from '@skald/contracts/api';
import type { OverviewServer, OverviewUser } from './overview.ts';

export function toAdminUser(user: OverviewUser): AdminUser {
  return {
    id: user._id,
    email: user.email,
    username: user.username,
    // Accounts stored before the default role's rename may still say `staff`.
    role: siteRoleFrom(user.siteRole) ?? DEFAULT_SITE_ROLE,
    twoFAEnabled: user.twoFA,
    serverCount: user.serverCount,
    active: user.active,
    created_at: user.createdAt,
    last_successful_login: user.lastLoginAt,
  };
}

export function toServerSummary(server: OverviewServer): AdminServerSummary {
  return {
    id: server._id,
    name: server.name ?? '',
    tier: server.tier ?? 'free',
    userCount: server.userCount ?? 0,
    logCount: server.logs ?? 0,
    photoLogCount: server.photoLogs ?? 0,
    auditLogCount: server.auditCount ?? 0,
    backupCount: server.backupCount ?? 0,
    totalBackupSize: server.backupSize ?? 0,
    is_suspended: server.suspended ?? false,
    created_at: server.createdAt ?? '',
  };
}

export function toServerDetail(server: OverviewServer): AdminServerDetail {
  const tier = tierOf(server.tier ?? 'free');
  return {
    id: server._id,
    name: server.name ?? '',
    tier: tier.key,
    tierInfo: {
      label: tier.label,
      limit: tier.limit,
      retentionDays: tier.retentionDays,
      maxPhotoLogs: tier.maxPhotoLogs,
      maxServerUsers: tier.maxServerUsers,
      maxExportsPerMonth: tier.maxExportsPerMonth,
      maxWebhooks: tier.maxWebhooks,
      maxBackups: tier.maxBackups,
    },
    created_at: server.createdAt ?? '',
    is_suspended: server.suspended ?? false,
    userCount: server.userCount ?? 0,
  };
}

/** GET /admin/servers: every known server, newest first. */
export function listServers(known: readonly OverviewServer[]): AdminServerList {
  const servers = [...known];
  servers.sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || a._id.localeCompare(b._id));
  return { servers: servers.map(toServerSummary) };
}
