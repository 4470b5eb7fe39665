/**
 * Feeds the admin area's read model (domain/overview.ts) from the facts their owners publish: auth's and
 * billing's identity facts, the logs service's counts and the backups service's catalogs. One group over
 * the three topics; each is a history topic, so a group added later starts from every server's last value.
 * (The logs service's live counts are observed by every replica instead: live-counts-observer.ts.)
 */
import {
  BackupCatalogChangedEvent,
  LogsServerCountsEvent,
  MembershipAddedEvent,
  MembershipRemovedEvent,
  MembershipRoleChangedEvent,
  ServerCreatedEvent,
  ServerDeletedEvent,
  ServerOwnerChangedEvent,
  ServerRenamedEvent,
  ServerSuspensionChangedEvent,
  ServerTierChangedEvent,
  UserActiveChangedEvent,
  UserRegisteredEvent,
  UserSignedInEvent,
  UserSiteRoleChangedEvent,
  UserUpdatedEvent,
  on,
  subscribeEvents,
} from '@skald/contracts';
import type { EventBus, Subscription } from '@skald/ports';
import { dayOf } from '../domain/overview.ts';
import type { Overview } from '../domain/overview.ts';

export const OVERVIEW_GROUP = 'admin.overview';

export function startOverviewConsumer(bus: EventBus, overview: Overview): Promise<Subscription> {
  return subscribeEvents(bus, {
    group: OVERVIEW_GROUP,
    handlers: [
      on(UserRegisteredEvent, (d) => overview.registerUser(d)),
      on(UserUpdatedEvent, (d) => overview.updateUser(d.userId, { email: d.email, username: d.username, twoFA: d.twoFactorEnabled })),
      on(UserSiteRoleChangedEvent, (d) => overview.updateUser(d.userId, { siteRole: d.role })),
      on(UserActiveChangedEvent, (d) => overview.updateUser(d.userId, { active: d.active })),
      on(UserSignedInEvent, (d) => overview.updateUser(d.userId, { lastLoginAt: d.at })),
      on(ServerCreatedEvent, (d) =>
        overview.setServer(d.serverId, {
          known: true,
          name: d.name,
          ownerId: d.ownerId,
          tier: d.tier,
          suspended: d.suspended,
          createdAt: d.createdAt,
          createdDay: dayOf(d.createdAt),
        }),
      ),
      on(ServerRenamedEvent, (d) => overview.setServer(d.serverId, { name: d.name })),
      on(ServerOwnerChangedEvent, (d) => overview.setServer(d.serverId, { ownerId: d.ownerId })),
      on(ServerTierChangedEvent, (d) => overview.setServer(d.serverId, { tier: d.tier })),
      on(ServerSuspensionChangedEvent, (d) => overview.setServer(d.serverId, { suspended: d.suspended })),
      on(ServerDeletedEvent, (d) => overview.deleteServer(d.serverId)),
      on(MembershipAddedEvent, (d) => overview.setMember(d.serverId, d.userId, d.role)),
      on(MembershipRoleChangedEvent, (d) => overview.setMember(d.serverId, d.userId, d.role)),
      on(MembershipRemovedEvent, (d) => overview.removeMember(d.serverId, d.userId)),
      on(LogsServerCountsEvent, (d) => overview.setLogCounts(d)),
      on(BackupCatalogChangedEvent, (d) =>
        overview.setServer(d.serverId, {
          backups: d.backups,
          backupCount: d.backups.length,
          backupSize: d.backups.reduce((sum, b) => sum + b.size, 0),
        }),
      ),
    ],
  });
}
