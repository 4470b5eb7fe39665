/**
 * The API-key read model over the real SQLite document store: one method per identity fact, and a second
 * replica (same store, its own memory) picking up changes it did not consume through refresh().
 */
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { hashApiKey } from '@skald/contracts';
import { createTestDeps } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import { KeyDirectory } from '../src/testing.ts';

describe('KeyDirectory replicas', () => {
  let deps: TestDeps;
  beforeEach(async () => {
    deps = await createTestDeps({ service: 'ingestion' });
  });
  afterEach(async () => {
    await deps.cleanup();
  });

  it('a second replica picks up a rotation it did not consume via refresh()', async () => {
    let clock = 1_000_000;
    const a = await KeyDirectory.open(deps.docs, () => clock);
    const b = await KeyDirectory.open(deps.docs, () => clock);
    await a.serverCreated({ serverId: 's1', name: 'S', ownerId: 'u', tier: 'pro', suspended: false, createdAt: '2026-01-01T00:00:00Z' });
    await a.keyRotated({ serverId: 's1', keyHash: hashApiKey('k1'), previousKeyHash: null });
    await b.load();
    expect(b.lookup(hashApiKey('k1'))).toMatchObject({ serverId: 's1', suspended: false, tier: { key: 'pro' } });
    clock += 10_000;
    await a.keyRotated({ serverId: 's1', keyHash: hashApiKey('k2'), previousKeyHash: hashApiKey('k1') });
    await a.suspensionChanged({ serverId: 's1', suspended: true });
    expect(b.lookup(hashApiKey('k1'))).not.toBeNull();
    clock += 2_000;
    await b.refresh();
    expect(b.lookup(hashApiKey('k1'))).toBeNull();
    expect(b.lookup(hashApiKey('k2'))).toMatchObject({ serverId: 's1', suspended: true });
    await a.serverDeleted({ serverId: 's1' });
    expect(a.lookup(hashApiKey('k2'))).toBeNull();
  });

  it('applies a tier change to an existing server and keeps its key', async () => {
    const directory = await KeyDirectory.open(deps.docs);
    await directory.serverCreated({ serverId: 's2', name: 'S', ownerId: 'u', tier: 'free', suspended: false, createdAt: '2026-01-01T00:00:00Z' });
    await directory.keyRotated({ serverId: 's2', keyHash: hashApiKey('k'), previousKeyHash: null });
    await directory.tierChanged({ serverId: 's2', tier: 'lite' });
    expect(directory.lookup(hashApiKey('k'))).toMatchObject({ serverId: 's2', tier: { key: 'lite' } });
  });
});
