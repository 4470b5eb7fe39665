/**
 * Recording players never costs a log: the store path queues the stored logs; the recorder records them
 * in runs. A log whose extraction throws is recorded without players (the rest of its run keeps theirs), a
 * player store that refuses the queue is logged and the batch's logs are stored, a run that fails is retried
 * from the queue; a redelivered batch counts nothing twice.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import type { AcceptedLog } from '@skald/contracts';
import type { PlayerStore, QueuedLog } from '@skald/ports';
import { createTestDeps, waitFor } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import type * as Extraction from '../src/domain/identity/extract-players.ts';
import { createPlayerRecorder } from '../src/domain/players/player-recorder.ts';
import type { PlayerRecorder } from '../src/domain/players/player-recorder.ts';
import { mentionsOf } from '../src/domain/players/record-players.ts';
import type { ServerDirectory } from '../src/domain/server-directory.ts';
import { storeAcceptedBatches } from '../src/domain/store-batch.ts';
import type { StoreBatchDeps } from '../src/domain/store-batch.ts';

type ExtractionModule = typeof Extraction;

// Extraction fails for the log whose message is 'm boom' (a bug meeting one odd log), as it would in production.
vi.mock('../src/domain/identity/extract-players.ts', async (original) => {
  const actual = await original<ExtractionModule>();
  return {
    ...actual,
    extractPlayers: (message: string, metadata: Readonly<Record<string, unknown>> | null) => {
      if (message === 'm boom') throw new Error('extraction bug');
      return actual.extractPlayers(message, metadata);
    },
  };
});

const S = 'srv-recording';
let deps: TestDeps;
let lines: string[];
let recorder: PlayerRecorder;

function log(id: string, metadata: AcceptedLog['metadata'], createdAt = 1_750_000_000_000): AcceptedLog {
  return { id, createdAt, level: 'info', type: 'General', resource: 'core', message: `m ${id}`, metadata, logType: 'text', imageKey: null, thumbKey: null };
}

const logger = () => pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });

function storeDeps(players: PlayerRecorder): StoreBatchDeps {
  return {
    logStore: deps.logStore,
    objects: deps.objects,
    directory: { server: async () => ({ tier: 'pro' }) } as unknown as ServerDirectory,
    log: logger(),
    players,
    notifyStored: async () => undefined,
  };
}

const stored = async (): Promise<string[]> => (await deps.logStore.query({ serverId: S, offset: 0, limit: 100 })).items.map((r) => r.id).sort();

beforeEach(async () => {
  deps = await createTestDeps({ service: 'logs' });
  lines = [];
  recorder = createPlayerRecorder({ store: deps.playerStore!, log: logger() }, { delayMs: 10, thread: false });
});

afterEach(async () => {
  await recorder.stop();
  await deps.cleanup();
});

describe('recording players', () => {
  it('records a log whose extraction throws without players, and the others of its run with theirs', async () => {
    const batch = [log('a', { player: { name: 'Ann', identifiers: ['license:ann'] } }), log('boom', { license: 'license:boo' })];
    await storeAcceptedBatches(storeDeps(recorder), [{ event: { serverId: S, logs: batch }, batchId: 'b1' }]);
    expect(await stored()).toEqual(['a', 'boom']);
    await recorder.catchUp();
    expect((await deps.playerStore!.byIdentifier(S, 'license:ann'))?.logCount).toBe(1);
    expect(await deps.playerStore!.byIdentifier(S, 'license:boo')).toBeNull();
    expect(lines.some((line) => line.includes('identity extraction failed') && line.includes('"logId":"boom"') && line.includes('extraction bug'))).toBe(true);
    expect(await deps.playerStore!.queued(10)).toEqual({ logs: [], through: -1 });
  });

  it('stores the batch when the player store refuses to queue it, and says so', async () => {
    const failing: PlayerStore = { ...deps.playerStore!, queue: async () => Promise.reject(new Error('disk full')) };
    const refused = createPlayerRecorder({ store: failing, log: logger() });
    await storeAcceptedBatches(storeDeps(refused), [{ event: { serverId: S, logs: [log('c', { license: 'license:cal' })] }, batchId: 'b2' }]);
    expect(await stored()).toEqual(['c']);
    expect(lines.some((line) => line.includes('queueing stored logs for their players failed') && line.includes('disk full'))).toBe(true);
  });

  it('retries a failed run from the queue in the background', async () => {
    const store = deps.playerStore!;
    let failures = 1;
    // The real store, its first record() refused.
    const flaky = new Proxy(store, {
      get(target, property) {
        if (property === 'record') {
          return async (...args: Parameters<PlayerStore['record']>) => {
            if (failures-- > 0) throw new Error('busy');
            return target.record(...args);
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const retrying = createPlayerRecorder({ store: flaky, log: logger() }, { delayMs: 10, thread: false });
    retrying.start();
    try {
      await storeAcceptedBatches(storeDeps(retrying), [{ event: { serverId: S, logs: [log('r', { license: 'license:ret' })] }, batchId: 'b4' }]);
      await waitFor(() => lines.some((line) => line.includes('recording queued players failed')), 'the failed run logged');
      // The next run (after the retry delay) records it: here, a read catching up.
      await retrying.catchUp();
      expect((await store.byIdentifier(S, 'license:ret'))?.logCount).toBe(1);
    } finally {
      await retrying.stop();
    }
  });

  it('records in the background once started, without a read', async () => {
    recorder.start();
    await storeAcceptedBatches(storeDeps(recorder), [{ event: { serverId: S, logs: [log('bg', { license: 'license:bgd' })] }, batchId: 'b5' }]);
    await waitFor(async () => (await deps.playerStore!.queued(10)).through === -1, 'the queue recorded');
    expect((await deps.playerStore!.byIdentifier(S, 'license:bgd'))?.logCount).toBe(1);
  });

  it('counts a redelivered batch once', async () => {
    const batch = [{ event: { serverId: S, logs: [log('d', { license: 'license:dee' }), log('e', { license: 'license:dee' }, 1_750_000_001_000)] }, batchId: 'b3' }];
    await storeAcceptedBatches(storeDeps(recorder), batch);
    await recorder.catchUp();
    await storeAcceptedBatches(storeDeps(recorder), batch);
    await recorder.catchUp();
    expect(await deps.playerStore!.byIdentifier(S, 'license:dee')).toMatchObject({ logCount: 2, firstSeen: 1_750_000_000_000, lastSeen: 1_750_000_001_000 });
  });

  it('takes the log time, type and expiry of each queued log', () => {
    const queued: QueuedLog = { logId: 'f', serverId: S, at: 5, logType: 'photo', expiresAt: 99, message: 'joined license:fay', metadata: null };
    expect(mentionsOf([queued, { ...queued, logId: 'g', message: 'nobody' }], pino({ level: 'silent' }))).toEqual([
      { logId: 'f', serverId: S, at: 5, logType: 'photo', expiresAt: 99, players: [{ linking: ['license:fay'], listed: [], names: [] }] },
    ]);
  });
});
