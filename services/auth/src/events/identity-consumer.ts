/**
 * The auth service also listens to the identity topic: tier and suspension changes (billing, admin)
 * and site-role / active changes (admin area) published by other services land in its own records,
 * so user limits, /auth/me and sign-in follow them. Its own events come back too; applying them
 * again changes nothing (values already match).
 */
import type { EventBus, Subscription } from '@skald/ports';
import { TOPICS } from '@skald/contracts';
import { decodeIdentityMessage } from '@skald/service-kit';
import type { IdentityPublisher } from './events.ts';
import { setSiteRole } from './site-roles.ts';
import type { AuthStore } from './store.ts';
import { revokeSessions } from './user-changes.ts';

export async function startIdentityConsumer(bus: EventBus, store: AuthStore, events: IdentityPublisher): Promise<Subscription> {
  await bus.ensureTopics([TOPICS.identity, TOPICS.audit]);
  return bus.subscribe({
    group: 'auth.identity',
    topics: [TOPICS.identity],
    handler: async (message) => {
      const event = decodeIdentityMessage(message);
      if (event === null) return;
      switch (event.type) {
        case 'server.tier-changed.v1':
          await store.servers.updateOne({ _id: event.data.serverId }, { $set: { tier: event.data.tier } });
          return;
        case 'server.suspension-changed.v1':
          await store.servers.updateOne({ _id: event.data.serverId }, { $set: { suspended: event.data.suspended } });
          return;
        case 'user.site-role-changed.v1': {
          const user = await store.users.findOne({ _id: event.data.userId });
          if (user !== null && user.siteRole !== event.data.role) await setSiteRole(store, events, user, event.data.role, { id: 'system', email: '' });
          return;
        }
        case 'user.active-changed.v1': {
          const user = await store.users.findOne({ _id: event.data.userId });
          if (user === null || user.active === event.data.active) return;
          await store.users.updateOne({ _id: user._id }, { $set: { active: event.data.active } });
          if (!event.data.active) await revokeSessions({ store, events }, user, 'disabled');
          return;
        }
        default:
          return;
      }
    },
  });
}
