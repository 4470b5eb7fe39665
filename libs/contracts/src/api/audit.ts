/**
 * The audit trail and exports (docs/spec/part-2.txt sections 2, 3, 7, 8, 9): the ONE list of audit action names
 * every service publishes (`auditMessage` in events/audit.ts takes only these), and the HTTP answer shapes
 * of GET /server/{id}/audit-logs, GET /admin/logs and GET /exports/status. Browser-safe: the web's
 * Action filter lists these names.
 */
import Type from 'typebox';
import type { Static } from 'typebox';

/** Changes made on a server by one of its members (or on its behalf by the payment provider). */
export const SERVER_AUDIT_ACTIONS = [
  'server.created',
  'server.renamed',
  'apikey.rotated',
  'membership.added',
  'membership.role-changed',
  'membership.removed',
  'logs.colors-saved',
  'logs.deleted',
  /** A player and every log mentioning one of its identifiers erased (DELETE /players/{id}; details: the count). */
  'player.erased',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.tested',
  'webhook.replayed',
  /** Dead letters removed without sending them (one or all). */
  'webhook.dead-letters-cleared',
  /** Alert rules (docs/ALERTS.md); details: the rule's id and kind. */
  'alert.created',
  'alert.updated',
  'alert.deleted',
  'alert.tested',
  /** Evidence cases (docs/CASES.md); details: the case's id and title, the chosen logs or what changed. */
  'case.created',
  'case.updated',
  'case.deleted',
  'backup.settings-saved',
  'backup.created',
  'backup.downloaded',
  'backup.deleted',
  'export.made',
  'billing.checkout-started',
  /** The subscription's status changed (Stripe webhook or period end; actor AUDIT_SYSTEM_ACTOR). */
  'billing.subscription-changed',
  /** The tier changed because of the subscription (actor AUDIT_SYSTEM_ACTOR). */
  'server.tier-changed',
  /** Suspended or resumed for payment (actor AUDIT_SYSTEM_ACTOR). */
  'server.suspension-changed',
] as const;

/**
 * Changes staff (site roles moderator, admin, superadmin) made in the admin area or with an operator
 * command. Those with a server also appear in that server's trail; all of them in GET /admin/logs.
 */
export const STAFF_AUDIT_ACTIONS = [
  'staff.tier-changed',
  'staff.suspension-changed',
  'staff.member-added',
  'staff.member-role-changed',
  'staff.member-removed',
  /** A member made the server's owner, the previous owner made admin (details name both accounts). */
  'staff.ownership-transferred',
  'user.site-role-changed',
  'user.active-changed',
] as const;

/** Changes of one's own account (serverId null): kept in the trail, shown on no server's screen. */
export const ACCOUNT_AUDIT_ACTIONS = [
  'user.registered',
  'user.logout',
  'user.2fa-enabled',
  'user.2fa-disabled',
  'user.password-reset',
  'user.password-changed',
  'user.username-changed',
  'user.email-changed',
] as const;

export const AUDIT_ACTIONS = [...SERVER_AUDIT_ACTIONS, ...STAFF_AUDIT_ACTIONS, ...ACCOUNT_AUDIT_ACTIONS] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

export function isStaffAuditAction(value: string): boolean {
  return (STAFF_AUDIT_ACTIONS as readonly string[]).includes(value);
}

/** The actor of changes no person made (Stripe webhooks, the billing period-end sweep). */
export const AUDIT_SYSTEM_ACTOR = { actorId: 'system', actorEmail: 'system' } as const;

/** `details`: a short text or a small object (shown as JSON text); never a secret. */
export const AuditDetailsSchema = Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown())]);

/** One entry of a server's audit trail (docs/spec/part-2.txt section 3). created_at: ISO 8601. */
export const AuditLogEntrySchema = Type.Object(
  {
    id: Type.String(),
    user_id: Type.String(),
    user_email: Type.String(),
    action: Type.String(),
    details: AuditDetailsSchema,
    created_at: Type.String(),
  },
  { additionalProperties: false },
);
export type AuditLogEntry = Static<typeof AuditLogEntrySchema>;

/** A user who appears in a server's trail (the User filter's options). */
export const AuditUserSchema = Type.Object({ id: Type.String(), email: Type.String() }, { additionalProperties: false });
export type AuditUser = Static<typeof AuditUserSchema>;

/**
 * GET /server/{id}/audit-logs: one page of entries (newest first) matching the filters, every user who
 * appears in the server's trail (unfiltered, for the User filter) and the number of matching entries.
 */
export const AuditLogPageSchema = Type.Object(
  {
    logs: Type.Array(AuditLogEntrySchema),
    users: Type.Array(AuditUserSchema),
    total: Type.Integer(),
  },
  { additionalProperties: false },
);
export type AuditLogPage = Static<typeof AuditLogPageSchema>;

/** Audit trail page size (docs/spec/part-2.txt section 9). */
export const AUDIT_PAGE_SIZE = 25;

/** One staff action (GET /admin/logs). server_id and server_name are null for actions on a user. */
export const AdminLogEntrySchema = Type.Object(
  {
    id: Type.String(),
    admin_user_id: Type.String(),
    admin_email: Type.String(),
    server_id: Type.Union([Type.String(), Type.Null()]),
    server_name: Type.Union([Type.String(), Type.Null()]),
    action: Type.String(),
    details: AuditDetailsSchema,
    created_at: Type.String(),
  },
  { additionalProperties: false },
);
export type AdminLogEntry = Static<typeof AdminLogEntrySchema>;

export const AdminLogListSchema = Type.Object({ logs: Type.Array(AdminLogEntrySchema) }, { additionalProperties: false });
export type AdminLogList = Static<typeof AdminLogListSchema>;

/** What can be exported (GET /exports/{type}, /exports/{type}/pdf, /exports/custom?types=a,b). */
export const EXPORT_TYPES = ['logs', 'photologs', 'auditlogs'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

export function isExportType(value: string): value is ExportType {
  return (EXPORT_TYPES as readonly string[]).includes(value);
}

/** GET /exports/status?serverId: exports made this calendar month (UTC) and the tier's maxExportsPerMonth. */
export const ExportStatusSchema = Type.Object({ used: Type.Integer(), limit: Type.Integer() }, { additionalProperties: false });
export type ExportStatus = Static<typeof ExportStatusSchema>;

/** The 429 error text of an export past the monthly limit (the screen shows its own modal text, docs/spec/part-2.txt section 8). */
export const EXPORT_LIMIT_REACHED = "You've reached your export limit for this month. Please try again later.";
