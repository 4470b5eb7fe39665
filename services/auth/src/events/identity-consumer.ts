/**
 * The auth service also listens to the identity topic: tier and suspension changes (billing, admin) and
 * site-role / active changes (admin area, the users:promote command) land in its own records, so user
 * limits, /auth/me and sign-in follow them. Its own events come back too.
 *
 * A consumed event is applied, never re-published as a new change (see domain/site-roles.ts): only a
 * real change of auth's record may add a user.sessions-revoked, so events cannot bounce.
 */
import type { EventBus, Subscription } from '@skald/ports';
import {
  ServerSuspensionChangedEvent,
  ServerTierChangedEvent,
  UserActiveChangedEvent,
  UserSiteRoleChangedEvent,
  on,
  subscribeEvents,
} from '@skald/contracts';
import { applyConsumedActive } from '../domain/account-status.ts';
import type { AuthContext } from '../domain/context.ts';
import { applyConsumedSuspension, applyConsumedTier } from '../domain/server-plan.ts';
import { applyConsumedSiteRole } from '../domain/site-roles.ts';

export const AUTH_IDENTITY_GROUP = 'auth.identity';

export function startIdentityConsumer(bus: EventBus, ctx: Pick<AuthContext, 'store' | 'events'>): Promise<Subscription> {
  return subscribeEvents(bus, {
    group: AUTH_IDENTITY_GROUP,
    handlers: [
      on(ServerTierChangedEvent, (change) => applyConsumedTier(ctx.store, change)),
      on(ServerSuspensionChangedEvent, (change) => applyConsumedSuspension(ctx.store, change)),
      on(UserSiteRoleChangedEvent, (change) => applyConsumedSiteRole(ctx, change)),
      on(UserActiveChangedEvent, (change) => applyConsumedActive(ctx, change)),
    ],
  });
}
