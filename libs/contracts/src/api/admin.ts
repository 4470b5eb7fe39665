/**
 * The staff admin area (docs/spec/part-2.txt sections 2, 3, 6, 7): request bodies, answer shapes and texts of the
 * /admin calls. Browser-safe (typebox only). Which service serves each call: gateway/src/route-table.ts and
 * docs/ADMIN_AREA.md.
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import { SPEC_TIER_LIMITS } from './billing.ts';
import { SiteRoleSchema } from './identity.ts';

/** Days the admin dashboard covers (docs/spec/part-2.txt section 9), today (UTC) included; top lists show TOP_SERVERS. */
export const ADMIN_STATS_DAYS = 7;
export const ADMIN_TOP_SERVERS = 5;

// docs/spec/part-2.txt sections 5, 8: refusals the screens show as the server's error text.
export const TWO_FA_REQUIRED_FOR_ROLE = 'User must have 2FA enabled to change role';
export const EMAIL_AND_ROLE_REQUIRED = 'Email and role are required';

const DateCountSchema = Type.Object({ date: Type.String(), count: Type.Integer() }, { additionalProperties: false });
const RankedServerSchema = Type.Object({ id: Type.String(), name: Type.String(), count: Type.Integer() }, { additionalProperties: false });

/** GET /admin/stats (docs/spec/part-2.txt section 3). Series: the last 7 UTC days, oldest first, every day present (0 when none). */
export const AdminStatsSchema = Type.Object(
  {
    totalLogs: Type.Integer(),
    totalPhotoLogs: Type.Integer(),
    totalServers: Type.Integer(),
    totalUsers: Type.Integer(),
    twoFAAdoption: Type.Object({ usersWith2FA: Type.Integer(), totalUsers: Type.Integer() }, { additionalProperties: false }),
    /** totalLogs / totalServers (0 without servers); the screen shows one decimal. */
    avgLogsPerServer: Type.Number(),
    serversWithoutLogs: Type.Integer(),
    logsPerDay: Type.Array(DateCountSchema),
    photoLogsPerDay: Type.Array(DateCountSchema),
    newUsers: Type.Array(DateCountSchema),
    newServers: Type.Array(DateCountSchema),
    topServers: Type.Array(RankedServerSchema),
    topPhotoServers: Type.Array(RankedServerSchema),
  },
  { additionalProperties: false },
);
export type AdminStats = Static<typeof AdminStatsSchema>;

/** One account (GET /admin/users). Times ISO 8601; last_successful_login null before the first sign-in. */
export const AdminUserSchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    username: Type.String(),
    role: SiteRoleSchema,
    twoFAEnabled: Type.Boolean(),
    serverCount: Type.Integer(),
    active: Type.Boolean(),
    created_at: Type.String(),
    last_successful_login: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type AdminUser = Static<typeof AdminUserSchema>;

export const AdminUserListSchema = Type.Object({ users: Type.Array(AdminUserSchema) }, { additionalProperties: false });
export type AdminUserList = Static<typeof AdminUserListSchema>;

/** PUT /admin/users/{id}/role */
export const AdminUserRoleBodySchema = Type.Object({ role: SiteRoleSchema }, { additionalProperties: false });
export type AdminUserRoleBody = Static<typeof AdminUserRoleBodySchema>;

/** PUT /admin/users/{id}/active */
export const AdminUserActiveBodySchema = Type.Object({ active: Type.Boolean() }, { additionalProperties: false });
export type AdminUserActiveBody = Static<typeof AdminUserActiveBodySchema>;

/** The answer of both user changes: the account as it is now. */
export const AdminUserStateSchema = Type.Object({ id: Type.String(), role: SiteRoleSchema, active: Type.Boolean() }, { additionalProperties: false });
export type AdminUserState = Static<typeof AdminUserStateSchema>;

/** One server (GET /admin/servers). Counts the owners publish; 0 until their first figures arrive. */
export const AdminServerSummarySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    tier: Type.String(),
    userCount: Type.Integer(),
    logCount: Type.Integer(),
    photoLogCount: Type.Integer(),
    auditLogCount: Type.Integer(),
    backupCount: Type.Integer(),
    /** Bytes. */
    totalBackupSize: Type.Integer(),
    is_suspended: Type.Boolean(),
    created_at: Type.String(),
  },
  { additionalProperties: false },
);
export type AdminServerSummary = Static<typeof AdminServerSummarySchema>;

export const AdminServerListSchema = Type.Object({ servers: Type.Array(AdminServerSummarySchema) }, { additionalProperties: false });
export type AdminServerList = Static<typeof AdminServerListSchema>;

/** GET /admin/tiers: the tier selector's options, lowest first. */
export const AdminTierListSchema = Type.Object(
  { tiers: Type.Array(Type.Object({ key: Type.String(), label: Type.String() }, { additionalProperties: false })) },
  { additionalProperties: false },
);
export type AdminTierList = Static<typeof AdminTierListSchema>;

/** GET /admin/servers/{id} (docs/spec/part-2.txt section 3: tierInfo's `limit` is the API limit, logs per hour). */
export const AdminServerDetailSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    tier: Type.String(),
    tierInfo: Type.Object(
      { label: Type.String(), ...SPEC_TIER_LIMITS },
      { additionalProperties: false },
    ),
    created_at: Type.String(),
    is_suspended: Type.Boolean(),
    userCount: Type.Integer(),
  },
  { additionalProperties: false },
);
export type AdminServerDetail = Static<typeof AdminServerDetailSchema>;

const ServerMemberRoleSchema = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('user')]);

/** GET /admin/servers/{id}/users: members, owner first, then oldest membership first. */
export const AdminServerUsersSchema = Type.Object(
  {
    users: Type.Array(
      Type.Object({ id: Type.String(), username: Type.String(), email: Type.String(), role: ServerMemberRoleSchema }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type AdminServerUsers = Static<typeof AdminServerUsersSchema>;

/** POST /admin/servers/{id}/users (docs/spec/part-2.txt section 5: role choices user, admin, owner). */
export const AdminAddServerUserBodySchema = Type.Object(
  { email: Type.String({ maxLength: 254 }), role: Type.String({ maxLength: 16 }) },
  { additionalProperties: false },
);
export type AdminAddServerUserBody = Static<typeof AdminAddServerUserBodySchema>;

/** PUT /admin/servers/{id}/users/{userId} */
export const AdminServerUserRoleBodySchema = Type.Object({ role: ServerMemberRoleSchema }, { additionalProperties: false });
export type AdminServerUserRoleBody = Static<typeof AdminServerUserRoleBodySchema>;

/** GET /admin/servers/{id}/backups: the stored backups, newest first (sizes in bytes). */
export const AdminServerBackupsSchema = Type.Object(
  { backups: Type.Array(Type.Object({ id: Type.String(), size: Type.Integer(), created_at: Type.String() }, { additionalProperties: false })) },
  { additionalProperties: false },
);
export type AdminServerBackups = Static<typeof AdminServerBackupsSchema>;

export const AdminPaginationSchema = Type.Object({ page: Type.Integer(), limit: Type.Integer(), total: Type.Integer() }, { additionalProperties: false });
export type AdminPagination = Static<typeof AdminPaginationSchema>;

/** Page sizes of the server detail tabs (docs/spec/part-2.txt section 9). */
export const ADMIN_PHOTO_PAGE_SIZE = 12;
export const ADMIN_AUDIT_PAGE_SIZE = 50;
export const ADMIN_LOGS_PAGE_SIZE = 50;

/** GET /admin/servers/{id}/photologs?page&limit (image_path: a signed relative URL, resolved against the API base). */
export const AdminPhotoLogPageSchema = Type.Object(
  {
    photos: Type.Array(
      Type.Object({ id: Type.String(), image_path: Type.Union([Type.String(), Type.Null()]), message: Type.String(), created_at: Type.String() }, { additionalProperties: false }),
    ),
    pagination: AdminPaginationSchema,
  },
  { additionalProperties: false },
);
export type AdminPhotoLogPage = Static<typeof AdminPhotoLogPageSchema>;

/** GET /admin/servers/{id}/audit-logs?page&limit */
export const AdminServerAuditPageSchema = Type.Object(
  {
    logs: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          action: Type.String(),
          created_at: Type.String(),
          user_id: Type.String(),
          details: Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown())]),
        },
        { additionalProperties: false },
      ),
    ),
    pagination: AdminPaginationSchema,
  },
  { additionalProperties: false },
);
export type AdminServerAuditPage = Static<typeof AdminServerAuditPageSchema>;

/** How many of a server's newest logs GET /admin/servers/{id}/logs answers (the tab filters and pages them on the client). */
export const ADMIN_SERVER_LOGS_LIMIT = 1000;

/** GET /admin/servers/{id}/logs: the newest text logs (docs/spec/part-2.txt section 3 "Server log"). */
export const AdminServerLogsSchema = Type.Object(
  {
    logs: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          level: Type.String(),
          type: Type.String(),
          resource: Type.String(),
          message: Type.String(),
          metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
          created_at: Type.String(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type AdminServerLogs = Static<typeof AdminServerLogsSchema>;
