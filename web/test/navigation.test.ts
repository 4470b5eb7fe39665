import { describe, expect, it } from 'vitest';
import { isStaffRole, isSuspendedError, roleLabel, sidebarGroups, usageView } from '../src/features/shell/navigation.ts';
import { pickCurrentServer } from '../src/features/auth/session.ts';

const labels = (role: string, usage = { maxWebhooks: 2, maxBackups: 1, maxAlertRules: 3 }) =>
  sidebarGroups(role, usage).flatMap((g) => g.entries.map((e) => `${g.label}/${e.label}${e.locked ? ' (locked)' : ''}`));

describe('sidebar visibility by server role (docs/spec/part-1.txt section 6)', () => {
  it('a user sees only the log screens', () => {
    expect(labels('user')).toEqual(['Logs/Dashboard', 'Logs/Logs', 'Logs/Photo Logs', 'Logs/Players', 'Logs/Cases']);
  });
  it('an admin also sees Integrations, Settings and the Audit group but not Users, DB Backups or Billing', () => {
    expect(labels('admin')).toEqual(['Logs/Dashboard', 'Logs/Logs', 'Logs/Photo Logs', 'Logs/Players', 'Logs/Cases', 'Integrations/Webhooks', 'Integrations/Alerts', 'Management/Settings', 'Audit/Audit Logs', 'Audit/Export Logs']);
  });
  it('the owner sees everything, including Users, DB Backups and Subscriptions', () => {
    expect(labels('OWNER')).toEqual([
      'Logs/Dashboard', 'Logs/Logs', 'Logs/Photo Logs', 'Logs/Players', 'Logs/Cases', 'Integrations/Webhooks', 'Integrations/Alerts',
      'Management/Users', 'Management/DB Backups', 'Management/Settings', 'Billing/Subscriptions', 'Audit/Audit Logs', 'Audit/Export Logs',
    ]);
  });
  it('locks Webhooks, Alerts and DB Backups when the tier allows none or the limits are unknown', () => {
    expect(labels('owner', { maxWebhooks: 0, maxBackups: 0, maxAlertRules: 0 })).toContain('Integrations/Webhooks (locked)');
    expect(labels('owner', { maxWebhooks: 0, maxBackups: 0, maxAlertRules: 0 })).toContain('Integrations/Alerts (locked)');
    expect(labels('owner', { maxWebhooks: 0, maxBackups: 0, maxAlertRules: 0 })).toContain('Management/DB Backups (locked)');
    const unknown = sidebarGroups('owner', undefined).flatMap((g) => g.entries).filter((e) => e.locked).map((e) => e.label);
    expect(unknown).toEqual(['Webhooks', 'Alerts', 'DB Backups']);
  });
  it("locks Alerts on the tier's alert rules, not on its webhooks", () => {
    expect(labels('owner', { maxWebhooks: 2, maxBackups: 1, maxAlertRules: 0 })).toEqual(expect.arrayContaining(['Integrations/Webhooks', 'Integrations/Alerts (locked)']));
    expect(labels('owner', { maxWebhooks: 0, maxBackups: 1, maxAlertRules: 3 })).toEqual(expect.arrayContaining(['Integrations/Webhooks (locked)', 'Integrations/Alerts']));
  });
});

describe('usage bar (docs/spec/part-1.txt section 4)', () => {
  it('is blue below 80, yellow from 80, red from 90 percent', () => {
    expect(usageView(79, 100).color).toBe('blue');
    expect(usageView(80, 100).color).toBe('yellow');
    expect(usageView(89, 100).color).toBe('yellow');
    expect(usageView(90, 100).color).toBe('red');
  });
  it('caps the percent at 100 and the shown used value at the limit', () => {
    expect(usageView(250, 100)).toEqual({ percent: 100, shownUsed: 100, color: 'red' });
  });
  it('recognises the suspended error text in any case', () => {
    expect(isSuspendedError('Server SUSPENDED')).toBe(true);
    expect(isSuspendedError('Not found')).toBe(false);
  });
});

describe('roles and current server', () => {
  it('shows the role in upper case, UNKNOWN when missing', () => {
    expect(roleLabel('owner')).toBe('OWNER');
    expect(roleLabel(undefined)).toBe('UNKNOWN');
  });
  it('only moderator, admin and superadmin count as staff', () => {
    expect(['moderator', 'admin', 'superadmin', 'staff', 'user'].map(isStaffRole)).toEqual([true, true, true, false, false]);
  });
  it('keeps the stored server when present, else falls back to the first', () => {
    const servers = [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }];
    expect(pickCurrentServer(servers, 'b')?.name).toBe('B');
    expect(pickCurrentServer(servers, 'gone')?.name).toBe('A');
    expect(pickCurrentServer([], 'a')).toBeNull();
  });
});
