/**
 * The site roles' one definition (roles.ts) and the default role's former name `staff`: read as `user` from
 * events in a topic's history, never published again.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_ROLE, FORMER_DEFAULT_SITE_ROLE, SITE_ROLES, UserRegisteredEvent, UserSiteRoleChangedEvent, eventMessage, siteRoleFrom, validateEventData } from '../src/index.ts';
import type { SiteRole } from '../src/index.ts';
import { SiteRoleSchema } from '../src/api/index.ts';

describe('site roles', () => {
  it('lists the default role first, as the answers name it', () => {
    expect(SITE_ROLES).toEqual(['user', 'moderator', 'admin', 'superadmin']);
    expect(DEFAULT_SITE_ROLE).toBe('user');
    expect(SiteRoleSchema.enum).toEqual([...SITE_ROLES]);
  });

  it('reads the former default name as the default, today\'s names as they are, anything else as none', () => {
    expect(siteRoleFrom(FORMER_DEFAULT_SITE_ROLE)).toBe('user');
    for (const role of SITE_ROLES) expect(siteRoleFrom(role)).toBe(role);
    for (const other of ['owner', 'Staff', '', null, undefined, 3]) expect(siteRoleFrom(other)).toBeNull();
  });

  it('upgrades consumed identity events that carry the former name, without touching the (frozen) payload', () => {
    const registered = Object.freeze({ userId: 'u1', username: 'u1', email: 'u1@x.io', role: FORMER_DEFAULT_SITE_ROLE, createdAt: '2026-01-01T00:00:00.000Z' });
    expect(validateEventData(UserRegisteredEvent, registered)).toEqual({ ok: true, data: { ...registered, role: 'user' } });
    expect(registered.role).toBe('staff');
    expect(validateEventData(UserSiteRoleChangedEvent, { userId: 'u1', role: FORMER_DEFAULT_SITE_ROLE })).toEqual({ ok: true, data: { userId: 'u1', role: 'user' } });
    expect(validateEventData(UserSiteRoleChangedEvent, { userId: 'u1', role: 'moderator' })).toEqual({ ok: true, data: { userId: 'u1', role: 'moderator' } });
    expect(validateEventData(UserSiteRoleChangedEvent, { userId: 'u1', role: 'owner' }).ok).toBe(false);
  });

  it('refuses to publish the former name', () => {
    const former = FORMER_DEFAULT_SITE_ROLE as string as SiteRole;
    expect(() => eventMessage(UserSiteRoleChangedEvent, 'u1', { userId: 'u1', role: former })).toThrow(/refusing to publish invalid event/);
    expect(() => eventMessage(UserSiteRoleChangedEvent, 'u1', { userId: 'u1', role: 'user' })).not.toThrow();
  });
});
