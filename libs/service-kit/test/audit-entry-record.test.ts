import { describe, expect, it } from 'vitest';
import { auditEntryRecord, createRecordingSequence } from '../src/audit-entry-record.ts';

describe('stored audit entries', () => {
  it('the recording sequence increases strictly when the clock stands still or steps back', () => {
    const clock = [1_000, 1_000, 999, 1_001];
    const next = createRecordingSequence(() => clock.shift() ?? 0);
    const seen = [next(), next(), next(), next()];
    expect(seen).toEqual([1_000_000, 1_000_001, 1_000_002, 1_001_000]);
  });

  it('keeps the event fields, sorts by the time as epoch ms, and an unreadable time sorts first (0)', () => {
    const entry = { actorId: 'u1', actorEmail: 'a@x.io', serverId: 's1', action: 'server.renamed', details: { to: 'B' }, at: '2026-03-01T10:00:00.000Z' };
    expect(auditEntryRecord('e1', entry, 7)).toEqual({ _id: 'e1', actorId: 'u1', actorEmail: 'a@x.io', action: 'server.renamed', details: { to: 'B' }, at: entry.at, atMs: Date.parse(entry.at), seq: 7 });
    expect(auditEntryRecord('e2', { ...entry, at: 'yesterday' }, 8).atMs).toBe(0);
  });
});
