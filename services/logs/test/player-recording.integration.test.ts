/**
 * Recording players never costs a log: the store path queues the stored logs; the recorder records them
 * in runs. A log whose extraction throws is recorded without players (the rest of its run keeps theirs), a
 * player store that refuses the queue is logged and the batch's logs are stored, a run that fails is retried
 * from the queue; a redelivered batch counts nothing twice. On the worker thread (the embedded store's
 * second connection): reads see exact seen times, an erasure on the service's connection is followed, the
 * thread ends when idle, a worker that cannot start leaves recording to the service's thread, and a SIGKILL
 * while it records loses nothing and counts nothing twice.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import { BACKGROUND_THREADS, SqlitePlayerStore, backgroundThreadsAlive } from '@skald/adapters';
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

  it('reads metadata given as JSON text (as the log store keeps it), parsing only text that may name an identifier', () => {
    const at = { serverId: S, at: 5, logType: 'text', expiresAt: 99 } as const;
    const silent = pino({ level: 'silent' });
    const logs = [
      { ...at, logId: 'j', message: 'joined', metadata: JSON.stringify({ player: { name: 'Jo', identifiers: ['License:jo', 'ip:1.2.3.4'] } }) },
      // Never parsed: neither it nor the message holds a kind before a colon (it is not even JSON).
      { ...at, logId: 'k', message: 'nobody', metadata: '{not json' },
      { ...at, logId: 'l', message: 'by license:lu', metadata: JSON.stringify({ playerName: 'Lu' }) },
    ];
    expect(mentionsOf(logs, silent)).toEqual([
      { ...at, logId: 'j', players: [{ linking: ['license:jo'], listed: ['ip:1.2.3.4'], names: ['Jo'] }] },
      { ...at, logId: 'l', players: [{ linking: ['license:lu'], listed: [], names: ['Lu'] }] },
    ]);
  });

  it('takes the log time, type and expiry of each queued log', () => {
    const queued: QueuedLog = { logId: 'f', serverId: S, at: 5, logType: 'photo', expiresAt: 99, message: 'joined license:fay', metadata: null };
    expect(mentionsOf([queued, { ...queued, logId: 'g', message: 'nobody' }], pino({ level: 'silent' }))).toEqual([
      { logId: 'f', serverId: S, at: 5, logType: 'photo', expiresAt: 99, players: [{ linking: ['license:fay'], listed: [], names: [] }] },
    ]);
  });
});

describe('recording players on the worker thread', () => {
  const storeLog = (id: string, license: string, createdAt: number, name = 'Wes'): AcceptedLog => log(id, { player: { name, identifiers: [license] } }, createdAt);
  const queueBatch = async (players: PlayerRecorder, logs: AcceptedLog[], batchId: string): Promise<void> => {
    await storeAcceptedBatches(storeDeps(players), [{ event: { serverId: S, logs }, batchId }]);
  };

  it('records in the background on its own thread, and a read after catching up sees exact seen times', async () => {
    const threaded = createPlayerRecorder({ store: deps.playerStore!, log: logger() });
    threaded.start();
    try {
      await queueBatch(threaded, [storeLog('w1', 'license:wes', 1_750_000_000_000)], 'w-1');
      await waitFor(() => backgroundThreadsAlive().includes(BACKGROUND_THREADS.playerStore), 'the recorder thread');
      await waitFor(async () => (await deps.playerStore!.queued(10)).through === -1, 'the queue recorded by the worker');
      await queueBatch(threaded, [storeLog('w2', 'license:wes', 1_750_000_009_000)], 'w-2');
      await threaded.catchUp();
      // The worker's connection gathered the second log's seen time in memory; catching up wrote it.
      expect(await deps.playerStore!.byIdentifier(S, 'license:wes')).toMatchObject({
        logCount: 2,
        identifiers: [{ identifier: 'license:wes', firstSeen: 1_750_000_000_000, lastSeen: 1_750_000_009_000 }],
        names: [{ name: 'Wes', firstSeen: 1_750_000_000_000, lastSeen: 1_750_000_009_000 }],
      });
    } finally {
      await threaded.stop();
    }
  });

  it('records batches queued in quick succession in the background (the worker told once for them, then again)', async () => {
    const threaded = createPlayerRecorder({ store: deps.playerStore!, log: logger() });
    threaded.start();
    try {
      for (let b = 0; b < 5; b++) await queueBatch(threaded, [storeLog(`q${b}`, 'license:quin', 1_750_000_000_000 + b)], `q-${b}`);
      await waitFor(async () => (await deps.playerStore!.queued(10)).through === -1, 'every batch recorded without a catch-up');
    } finally {
      await threaded.stop();
    }
  });

  it('follows an erasure on the service connection: the identifier seen again makes a new player with only the new log', async () => {
    const threaded = createPlayerRecorder({ store: deps.playerStore!, log: logger() });
    threaded.start();
    try {
      await queueBatch(threaded, [storeLog('x1', 'license:xan', 1_750_000_000_000, 'Xan')], 'x-1');
      await threaded.catchUp();
      const first = await deps.playerStore!.byIdentifier(S, 'license:xan');
      // The worker remembers the player and its identifier's owner; the service's connection erases it.
      await deps.playerStore!.erase(S, first!.id);
      await queueBatch(threaded, [storeLog('x2', 'license:xan', 1_750_000_005_000, 'Xan')], 'x-2');
      await threaded.catchUp();
      const again = await deps.playerStore!.byIdentifier(S, 'license:xan');
      // A worker still believing the old player owned the identifier would have found none here (its rows gone).
      expect(again).toMatchObject({ logCount: 1, firstSeen: 1_750_000_005_000, identifiers: [{ identifier: 'license:xan', firstSeen: 1_750_000_005_000, lastSeen: 1_750_000_005_000 }] });
      expect(await deps.playerStore!.timeline({ serverId: S, playerId: again!.id, limit: 10 })).toEqual([{ at: 1_750_000_005_000, logId: 'x2', logType: 'text' }]);
    } finally {
      await threaded.stop();
    }
  });

  it('ends its thread when idle and starts another when logs are queued', async () => {
    const threaded = createPlayerRecorder({ store: deps.playerStore!, log: logger() }, { idleMs: 50 });
    threaded.start();
    try {
      await queueBatch(threaded, [storeLog('i1', 'license:ida', 1_750_000_000_000)], 'i-1');
      await waitFor(async () => (await deps.playerStore!.queued(10)).through === -1, 'the first log recorded');
      await waitFor(() => !backgroundThreadsAlive().includes(BACKGROUND_THREADS.playerStore), 'the idle thread to end');
      await queueBatch(threaded, [storeLog('i2', 'license:ida', 1_750_000_001_000)], 'i-2');
      await waitFor(async () => (await deps.playerStore!.queued(10)).through === -1, 'the second log recorded by a new thread');
      expect((await deps.playerStore!.byIdentifier(S, 'license:ida'))?.logCount).toBe(2);
      // A read's catch-up starts the thread too, and it ends again once idle.
      await waitFor(() => !backgroundThreadsAlive().includes(BACKGROUND_THREADS.playerStore), 'the second thread to end');
      await threaded.catchUp();
      expect(backgroundThreadsAlive()).toContain(BACKGROUND_THREADS.playerStore);
      await waitFor(() => !backgroundThreadsAlive().includes(BACKGROUND_THREADS.playerStore), 'the thread a catch-up started to end');
    } finally {
      await threaded.stop();
    }
  });

  it("records on the service's thread when the worker cannot start, and says so", async () => {
    const store = deps.playerStore!;
    // The real store, its worker refused (a platform without threads, a file it cannot open twice).
    const noWorker = new Proxy(store, {
      get(target, property) {
        if (property === 'startWorker') {
          return () => {
            throw new Error('no threads here');
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const broken = createPlayerRecorder({ store: noWorker, log: logger() });
    broken.start();
    try {
      await queueBatch(broken, [storeLog('f1', 'license:fal', 1_750_000_000_000)], 'f-1');
      await broken.catchUp();
      expect((await store.byIdentifier(S, 'license:fal'))?.logCount).toBe(1);
      expect(lines.some((line) => line.includes("the player recorder's worker failed") && line.includes('no threads here'))).toBe(true);
    } finally {
      await broken.stop();
    }
  });

  // timeout: starts, SIGKILLs and restarts a recording child process
  it('keeps every queued log across a SIGKILL while the worker records: recorded once after the restart', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-players-crash-'));
    try {
      const file = join(dir, 'players.db');
      const child = spawn(process.execPath, [fileURLToPath(new URL('./fixtures/record-then-die.ts', import.meta.url)), file, '40'], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const [, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
      expect(out).toContain('queued');
      expect(signal).toBe('SIGKILL');
      const reopened = new SqlitePlayerStore(file, { logFile: join(dir, 'logs.db') });
      const after = createPlayerRecorder({ store: reopened, log: logger() });
      after.start();
      try {
        // Started, the recorder records what the killed process left queued by itself.
        await waitFor(async () => (await reopened.queued(1)).through === -1, 'what the killed process queued, recorded at start', 30_000);
        await after.catchUp();
        // 2,000 logs over 7 players (log i names player i % 7): every log counted once, none lost, none twice.
        let total = 0;
        for (let p = 0; p < 7; p++) total += (await reopened.byIdentifier('srv-crash', `license:p${p}`))?.logCount ?? 0;
        expect(total).toBe(2000);
        expect((await reopened.byIdentifier('srv-crash', 'discord:3'))?.logCount).toBe(Math.ceil((2000 - 3) / 7));
      } finally {
        await after.stop();
        await reopened.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
