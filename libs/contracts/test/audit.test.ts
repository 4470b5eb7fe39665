import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_AUDIT_ACTIONS,
  AUDIT_ACTIONS,
  AUDIT_SYSTEM_ACTOR,
  SERVER_AUDIT_ACTIONS,
  STAFF_AUDIT_ACTIONS,
  isAuditAction,
  isStaffAuditAction,
} from '../src/api/audit.ts';
import { AuditRecordedEvent, auditMessage } from '../src/events/audit.ts';
import { EVENT_TYPE_HEADER } from '../src/events/framework.ts';
import { TOPICS } from '../src/topics.ts';

describe('the audit action vocabulary', () => {
  it('is one list of unique dotted names, each in exactly one group', () => {
    expect(new Set(AUDIT_ACTIONS).size).toBe(AUDIT_ACTIONS.length);
    expect(AUDIT_ACTIONS).toHaveLength(SERVER_AUDIT_ACTIONS.length + STAFF_AUDIT_ACTIONS.length + ACCOUNT_AUDIT_ACTIONS.length);
    for (const action of AUDIT_ACTIONS) expect(action).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*\.[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('holds every action the audit trail records', () => {
    for (const action of [
      'server.created', 'server.renamed', 'apikey.rotated', 'logs.colors-saved', 'logs.deleted', 'membership.added', 'membership.role-changed',
      'membership.removed', 'webhook.created', 'webhook.updated', 'webhook.deleted', 'webhook.tested', 'webhook.replayed', 'backup.settings-saved',
      'backup.created', 'backup.downloaded', 'backup.deleted', 'export.made', 'billing.checkout-started', 'billing.subscription-changed',
      'server.tier-changed', 'server.suspension-changed', 'staff.tier-changed', 'staff.suspension-changed',
    ]) {
      expect(isAuditAction(action), action).toBe(true);
    }
    expect(isAuditAction('server.exploded')).toBe(false);
  });

  it('flags staff actions only', () => {
    expect(STAFF_AUDIT_ACTIONS.every(isStaffAuditAction)).toBe(true);
    expect([...SERVER_AUDIT_ACTIONS, ...ACCOUNT_AUDIT_ACTIONS].some(isStaffAuditAction)).toBe(false);
  });
});

describe('auditMessage', () => {
  const entry = { ...AUDIT_SYSTEM_ACTOR, serverId: 's1', action: 'server.tier-changed' as const, details: { from: 'free', to: 'pro' }, at: '2026-01-01T00:00:00.000Z' };

  it('builds a validated audit.recorded event on the audit topic, keyed by the server (or the actor)', () => {
    const message = auditMessage(entry);
    expect(message).toMatchObject({ topic: TOPICS.audit, key: 's1', headers: { [EVENT_TYPE_HEADER]: 'audit.recorded.v1' }, payload: { type: 'audit.recorded', data: entry } });
    expect(auditMessage({ ...entry, serverId: null, action: 'user.logout', actorId: 'u1' }).key).toBe('u1');
    expect(() => auditMessage({ ...entry, details: 'x'.repeat(2001) })).toThrow(/refusing to publish invalid event/);
  });

  it('keeps the wire open to names a newer producer adds (stored, not dead-lettered)', () => {
    expect(AuditRecordedEvent.validate({ ...entry, action: 'something.new' }).ok).toBe(true);
  });
});
