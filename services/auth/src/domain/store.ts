/**
 * The auth service's own collections (its DocumentStore: DATA_DIR/auth/documents.db or MongoDB skald_auth).
 * Nothing here is ever stored in plaintext if it is a secret: passwords are scrypt hashes, TOTP seeds are
 * AES-GCM sealed, API keys, reset tokens and 2FA pre-tokens are SHA-256 hashes.
 */
import type { Collection, DocumentStore, GuardedUpdate } from '@skald/ports';
import { DEFAULT_SITE_ROLE, FORMER_DEFAULT_SITE_ROLE } from '@skald/contracts';
import type { ServerRole, SiteRole } from '@skald/contracts';

export interface UserDoc {
  readonly _id: string;
  readonly username: string;
  /** Lower-cased username: uniqueness and login are case-insensitive. */
  readonly usernameLower: string;
  /** Stored lower-cased. */
  readonly email: string;
  readonly passwordHash: string;
  readonly siteRole: SiteRole;
  readonly active: boolean;
  /** Access tokens carry it as `tv`; bumping it revokes every older token. */
  readonly tokenVersion: number;
  readonly twoFactorEnabled: boolean;
  /** Sealed TOTP seed in use (null when 2FA is off). */
  readonly totpSecretSealed: string | null;
  /** Sealed seed from GET /2fa/setup, waiting for POST /2fa/verify. */
  readonly totpPendingSealed: string | null;
  /** Last accepted TOTP time step (replay protection via otplib afterTimeStep). */
  readonly totpLastStep: number | null;
  readonly createdAt: string;
  readonly lastLoginAt: string | null;
}

export interface ServerDoc {
  readonly _id: string;
  readonly name: string;
  readonly nameLower: string;
  readonly ownerId: string;
  readonly tier: string;
  readonly suspended: boolean;
  /** hashApiKey (SHA-256 hex) of the current API key. */
  readonly keyHash: string;
  readonly createdAt: string;
}

export interface MembershipDoc {
  /** `${serverId}:${userId}` */
  readonly _id: string;
  readonly serverId: string;
  readonly userId: string;
  readonly role: ServerRole;
  readonly createdAt: string;
}

export interface ResetTokenDoc {
  /** SHA-256 hex of the token in the mailed link. */
  readonly _id: string;
  readonly userId: string;
  /** Epoch ms. */
  readonly expiresAt: number;
}

export interface PreTokenDoc {
  /** SHA-256 hex of the pre_token handed out by POST /auth/login. */
  readonly _id: string;
  readonly userId: string;
  /** Epoch ms. */
  readonly expiresAt: number;
  /** The user's token version when issued: a password change in between kills the pre-token. */
  readonly tokenVersion: number;
  readonly failedAttempts: number;
}

/** The collections' names in the store (updateAllOrNone names them). */
export const AUTH_COLLECTIONS = {
  users: 'users',
  servers: 'servers',
  memberships: 'memberships',
  resetTokens: 'reset_tokens',
  preTokens: 'pre_tokens',
} as const;

/** A guarded update of one of auth's collections. */
export interface AuthUpdate extends GuardedUpdate {
  readonly collection: (typeof AUTH_COLLECTIONS)[keyof typeof AUTH_COLLECTIONS];
}

export interface AuthStore {
  readonly users: Collection<UserDoc>;
  readonly servers: Collection<ServerDoc>;
  readonly memberships: Collection<MembershipDoc>;
  readonly resetTokens: Collection<ResetTokenDoc>;
  readonly preTokens: Collection<PreTokenDoc>;
  /** Several guarded updates applied all or none (false: one filter matched nothing, nothing changed). */
  readonly updateAllOrNone: (updates: readonly AuthUpdate[]) => Promise<boolean>;
}

export async function openAuthStore(docs: DocumentStore): Promise<AuthStore> {
  const users = await docs.collection<UserDoc>(AUTH_COLLECTIONS.users, [
    { fields: ['usernameLower'], unique: true },
    { fields: ['email'], unique: true },
  ]);
  // Accounts stored before the default site role was renamed say `staff`: renamed here, at every open (a no-op
  // once done; any replica may run it). Tokens and events with the former name read as today's (siteRoleFrom).
  await users.updateMany({ siteRole: FORMER_DEFAULT_SITE_ROLE }, { $set: { siteRole: DEFAULT_SITE_ROLE } });
  return {
    users,
    servers: await docs.collection<ServerDoc>(AUTH_COLLECTIONS.servers, [
      { fields: ['nameLower'], unique: true },
      { fields: ['keyHash'], unique: true },
    ]),
    memberships: await docs.collection<MembershipDoc>(AUTH_COLLECTIONS.memberships, [{ fields: ['serverId'] }, { fields: ['userId'] }]),
    resetTokens: await docs.collection<ResetTokenDoc>(AUTH_COLLECTIONS.resetTokens, [{ fields: ['userId'] }]),
    preTokens: await docs.collection<PreTokenDoc>(AUTH_COLLECTIONS.preTokens, [{ fields: ['userId'] }]),
    updateAllOrNone: (updates) => docs.updateAllOrNone(updates),
  };
}

export function membershipId(serverId: string, userId: string): string {
  return `${serverId}:${userId}`;
}
