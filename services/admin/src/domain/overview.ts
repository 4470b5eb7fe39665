/**
 * The admin area's read model: every account and server with the figures the staff screens show,
 * kept in admin's own store from the facts their owners publish (docs/EVENTS.md "Data another service owns"), never read from another service's store:
 *   - accounts, servers, memberships: auth's identity facts (tier and suspension: billing's), TOPICS.identity;
 *   - stored text and photo logs, per day: the logs service's logs.server-counts, TOPICS.logCounts;
 *   - stored backups and their sizes: the backups service's backup.catalog-changed, TOPICS.backups;
 *   - audit entries per server: admin's own trail (audit-trail.ts).
 * Every fact is a full value, so applying one again changes nothing, and counts derived here (members per
 * server, servers per user) are recounted from the stored memberships, never incremented: a redelivery
 * cannot skew them.
 *
 * A server document may exist before its server.created (the figures come on other topics, in their own
 * order): `known` marks servers auth announced; lists and stats read known servers only. A deleted server
 * stays as a tombstone (known false), and every write stamps `changedAt`, so each replica's in-memory copy
 * of the servers (server-mirror.ts) reads only what changed since its last look.
 */
import type { Collection, DocumentStore } from '@skald/ports';
import type { ServerRole, SiteRole } from '@skald/contracts';

export interface OverviewUser {
  readonly _id: string;
  readonly email: string;
  readonly username: string;
  readonly siteRole: SiteRole;
  readonly twoFA: boolean;
  readonly active: boolean;
  /** ISO 8601 registration time and its UTC day (the new-users series). */
  readonly createdAt: string;
  readonly createdDay: string;
  readonly lastLoginAt: string | null;
  readonly serverCount: number;
}

export interface DayFigures {
  readonly date: string;
  readonly logs: number;
  readonly photoLogs: number;
}

export interface StoredBackup {
  readonly id: string;
  readonly size: number;
  readonly createdAt: string;
}

/** Fields are optional: each arrives with its own fact, in any order across topics. */
export interface OverviewServer {
  readonly _id: string;
  readonly known?: boolean;
  readonly name?: string;
  readonly ownerId?: string;
  readonly tier?: string;
  readonly suspended?: boolean;
  readonly createdAt?: string;
  readonly createdDay?: string;
  readonly userCount?: number;
  readonly logs?: number;
  readonly photoLogs?: number;
  readonly days?: readonly DayFigures[];
  /** ISO 8601 time the logs service read logs, photoLogs and days (its countedAt): an older fact is ignored. */
  readonly countedAt?: string;
  readonly auditCount?: number;
  readonly backups?: readonly StoredBackup[];
  readonly backupCount?: number;
  readonly backupSize?: number;
  /** Epoch ms of the last write (server-mirror.ts reads the servers changed since its last look). */
  readonly changedAt?: number;
}

interface OverviewMember {
  readonly _id: string;
  readonly serverId: string;
  readonly userId: string;
  readonly role: ServerRole;
  /** Order of joining (the members tab lists the owner, then the oldest first). */
  readonly joinedAt: number;
}

export interface MemberView {
  readonly userId: string;
  readonly role: ServerRole;
}

/** A server's stored logs as the logs service counted them at countedAt. */
export type LogCountsFact = Required<Pick<OverviewServer, 'logs' | 'photoLogs' | 'days' | 'countedAt'>> & { readonly serverId: string };

export interface Overview {
  readonly users: Collection<OverviewUser>;
  readonly servers: Collection<OverviewServer>;
  registerUser(data: { userId: string; email: string; username: string; role: SiteRole; createdAt: string }): Promise<void>;
  updateUser(userId: string, set: Partial<Pick<OverviewUser, 'email' | 'username' | 'siteRole' | 'twoFA' | 'active' | 'lastLoginAt'>>): Promise<void>;
  setServer(serverId: string, set: Omit<OverviewServer, '_id'>): Promise<void>;
  /**
   * The logs service's figures for a server (logs.server-counts), unless the server holds figures counted
   * later (a redelivery, or two consumers of the group handling a server's facts out of order).
   */
  setLogCounts(fact: LogCountsFact): Promise<void>;
  deleteServer(serverId: string): Promise<void>;
  setMember(serverId: string, userId: string, role: ServerRole): Promise<void>;
  removeMember(serverId: string, userId: string): Promise<void>;
  membersOf(serverId: string): Promise<MemberView[]>;
}

/** Whether ISO 8601 time `a` (as toISOString writes it: one format, so text order is time order) is after `b`. */
export function isLater(a: string, b: string): boolean {
  return a > b;
}

/** The UTC day of an ISO time ('' when it is not one). */
export function dayOf(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : '';
}

export async function createOverview(docs: DocumentStore): Promise<Overview> {
  const users = await docs.collection<OverviewUser>('overview_users', [{ fields: ['createdDay'] }, { fields: ['twoFA'] }]);
  const servers = await docs.collection<OverviewServer>('overview_servers', [{ fields: ['known'] }, { fields: ['changedAt'] }]);
  const members = await docs.collection<OverviewMember>('overview_members', [{ fields: ['serverId'] }, { fields: ['userId'] }]);
  let joined = 0;

  async function recount(serverId: string, userIds: readonly string[]): Promise<void> {
    await servers.updateOne({ _id: serverId }, { $set: { userCount: await members.count({ serverId }), changedAt: Date.now() } }, { upsert: true });
    for (const userId of userIds) await users.updateOne({ _id: userId }, { $set: { serverCount: await members.count({ userId }) } });
  }

  return {
    users,
    servers,
    async registerUser(data) {
      const fields = { email: data.email, username: data.username, siteRole: data.role, createdAt: data.createdAt, createdDay: dayOf(data.createdAt) };
      const existing = await users.findOne({ _id: data.userId });
      if (existing !== null) {
        await users.updateOne({ _id: data.userId }, { $set: fields });
        return;
      }
      const serverCount = await members.count({ userId: data.userId });
      await users.updateOne({ _id: data.userId }, { $set: { ...fields, twoFA: false, active: true, lastLoginAt: null, serverCount } }, { upsert: true });
    },
    async updateUser(userId, set) {
      // Every account fact is keyed by the user on the identity topic, so user.registered came first.
      await users.updateOne({ _id: userId }, { $set: set });
    },
    async setServer(serverId, set) {
      await servers.updateOne({ _id: serverId }, { $set: { ...set, changedAt: Date.now() } }, { upsert: true });
    },
    async setLogCounts({ serverId, ...counts }) {
      const held = (await servers.findOne({ _id: serverId }))?.countedAt;
      if (held !== undefined && isLater(held, counts.countedAt)) return;
      await servers.updateOne({ _id: serverId }, { $set: { ...counts, changedAt: Date.now() } }, { upsert: true });
    },
    async deleteServer(serverId) {
      const gone = await members.find({ serverId });
      await members.deleteMany({ serverId });
      await servers.updateOne({ _id: serverId }, { $set: { known: false, changedAt: Date.now() } });
      for (const m of gone) await users.updateOne({ _id: m.userId }, { $set: { serverCount: await members.count({ userId: m.userId }) } });
    },
    async setMember(serverId, userId, role) {
      const id = JSON.stringify([serverId, userId]);
      const existing = await members.findOne({ _id: id });
      joined = Math.max(Date.now() * 1000, joined + 1);
      await members.updateOne({ _id: id }, { $set: { serverId, userId, role, joinedAt: existing?.joinedAt ?? joined } }, { upsert: true });
      await recount(serverId, [userId]);
    },
    async removeMember(serverId, userId) {
      await members.deleteOne({ _id: JSON.stringify([serverId, userId]) });
      await recount(serverId, [userId]);
    },
    async membersOf(serverId) {
      const found = await members.find({ serverId }, { sort: { joinedAt: 1 } });
      const rank = (role: ServerRole) => (role === 'owner' ? 0 : 1);
      return found.sort((a, b) => rank(a.role) - rank(b.role) || a.joinedAt - b.joinedAt).map((m) => ({ userId: m.userId, role: m.role }));
    },
  };
}
