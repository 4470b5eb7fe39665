/**
 * Identity at storage never costs a log: a log whose extraction throws is stored without players (the rest
 * of its batch keeps theirs), a player store that fails is logged and the batch's logs are stored; a
 * redelivered batch counts nothing twice.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import type { AcceptedLog } from '@skald/contracts';
import type { LogRecord, PlayerStore } from '@skald/ports';
import { createTestDeps } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import type * as Extraction from '../src/domain/identity/extract-players.ts';
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

function log(id: string, metadata: AcceptedLog['metadata'], createdAt = 1_750_000_000_000): AcceptedLog {
  return { id, createdAt, level: 'info', type: 'General', resource: 'core', message: `m ${id}`, metadata, logType: 'text', imageKey: null, thumbKey: null };
}

function storeDeps(players: PlayerStore): StoreBatchDeps {
  return {
    logStore: deps.logStore,
    objects: deps.objects,
    directory: { server: async () => ({ tier: 'pro' }) } as unknown as ServerDirectory,
    log: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }),
    players,
    notifyStored: async () => undefined,
  };
}

const stored = async (): Promise<string[]> => (await deps.logStore.query({ serverId: S, offset: 0, limit: 100 })).items.map((r) => r.id).sort();

beforeEach(async () => {
  deps = await createTestDeps({ service: 'logs' });
  lines = [];
});

afterEach(async () => {
  await deps.cleanup();
});

describe('recording players at storage', () => {
  it('stores a log whose extraction throws, without players, and records the others of its batch', async () => {
    const batch = [log('a', { player: { name: 'Ann', identifiers: ['license:ann'] } }), log('boom', { license: 'license:boo' })];
    await storeAcceptedBatches(storeDeps(deps.playerStore!), [{ event: { serverId: S, logs: batch }, batchId: 'b1' }]);
    expect(await stored()).toEqual(['a', 'boom']);
    expect((await deps.playerStore!.byIdentifier(S, 'license:ann'))?.logCount).toBe(1);
    expect(await deps.playerStore!.byIdentifier(S, 'license:boo')).toBeNull();
    expect(lines.some((line) => line.includes('identity extraction failed') && line.includes('"logId":"boom"') && line.includes('extraction bug'))).toBe(true);
  });

  it('stores the batch when the player store fails, and says so', async () => {
    const failing: PlayerStore = { ...deps.playerStore!, record: async () => Promise.reject(new Error('disk full')) };
    await storeAcceptedBatches(storeDeps(failing), [{ event: { serverId: S, logs: [log('c', { license: 'license:cal' })] }, batchId: 'b2' }]);
    expect(await stored()).toEqual(['c']);
    expect(lines.some((line) => line.includes('recording the players of stored logs failed') && line.includes('disk full'))).toBe(true);
  });

  it('counts a redelivered batch once', async () => {
    const batch = [{ event: { serverId: S, logs: [log('d', { license: 'license:dee' }), log('e', { license: 'license:dee' }, 1_750_000_001_000)] }, batchId: 'b3' }];
    await storeAcceptedBatches(storeDeps(deps.playerStore!), batch);
    await storeAcceptedBatches(storeDeps(deps.playerStore!), batch);
    expect(await deps.playerStore!.byIdentifier(S, 'license:dee')).toMatchObject({ logCount: 2, firstSeen: 1_750_000_000_000, lastSeen: 1_750_000_001_000 });
  });

  it('takes the log time, type and expiry of each stored log', () => {
    const record: LogRecord = {
      id: 'f',
      serverId: S,
      createdAt: 5,
      level: 'info',
      type: 'Join',
      resource: 'core',
      message: 'joined license:fay',
      metadata: null,
      logType: 'photo',
      imageKey: 'i',
      thumbKey: 't',
      expiresAt: 99,
    };
    expect(mentionsOf([record, { ...record, id: 'g', message: 'nobody' }], pino({ level: 'silent' }))).toEqual([
      { logId: 'f', serverId: S, at: 5, logType: 'photo', expiresAt: 99, players: [{ linking: ['license:fay'], listed: [], names: [] }] },
    ]);
  });
});
