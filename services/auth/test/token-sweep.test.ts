/** Expired reset tokens and 2FA pre-tokens are removed by a repeatable job on the JobQueue port, without being asked. */
import { describe, expect, it, onTestFinished } from 'vitest';
import { startHarness, waitFor } from './support/harness.ts';

describe('scheduled token sweep', () => {
  it('deletes expired reset tokens and pre-tokens and keeps live ones', async () => {
    const h = await startHarness({ tokenSweepEveryMs: 200 });
    onTestFinished(() => h.close());
    const past = Date.now() - 1000;
    const future = Date.now() + 60 * 60_000;
    await h.store.resetTokens.insertOne({ _id: 'reset-expired', userId: 'u1', expiresAt: past });
    await h.store.resetTokens.insertOne({ _id: 'reset-live', userId: 'u2', expiresAt: future });
    await h.store.preTokens.insertOne({ _id: 'pre-expired', userId: 'u1', expiresAt: past, tokenVersion: 0, failedAttempts: 0 });
    await h.store.preTokens.insertOne({ _id: 'pre-live', userId: 'u2', expiresAt: future, tokenVersion: 0, failedAttempts: 0 });
    await waitFor(
      async () => (await h.store.resetTokens.count({})) === 1 && (await h.store.preTokens.count({})) === 1,
      'the scheduled sweep',
      10_000,
    );
    expect((await h.store.resetTokens.find({})).map((t) => t._id)).toEqual(['reset-live']);
    expect((await h.store.preTokens.find({})).map((t) => t._id)).toEqual(['pre-live']);
  });
});
