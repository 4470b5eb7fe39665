/** The retention sweep runs by itself on the embedded job queue (the SQLite deployments have no TTL index). */
import { describe, expect, it, onTestFinished } from 'vitest';
import { waitFor } from '@skald/testing';
import { createHarness, record, storedIds, storedObjects } from './support/harness.ts';

describe('scheduled retention', () => {
  it('deletes expired logs and their photos without being asked', async () => {
    const h = await createHarness({ retentionEveryMs: 200 });
    onTestFinished(() => h.close());
    await h.deps.objects.put('photos/s/old.webp', Buffer.from('x'), 'image/webp');
    // The sweep compares with the real time: expiry belongs to the stored log, not to the read side's clock.
    const past = Date.now() - 1000;
    await h.deps.logStore.insertBatch([
      record('s', { id: 'expired', expiresAt: past, logType: 'photo', imageKey: 'photos/s/old.webp', thumbKey: null }),
      record('s', { id: 'kept', expiresAt: Date.now() + 86_400_000 }),
    ]);
    await waitFor(async () => !(await storedIds(h, 's')).includes('expired'), 'the scheduled sweep');
    expect(await storedIds(h, 's')).toEqual(['kept']);
    // The photo goes after its row (store-batch.ts deleteObjects), so on a busy machine a moment later.
    await waitFor(async () => (await storedObjects(h)).length === 0, 'the expired photo removed');
  });
});
