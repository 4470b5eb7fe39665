// The embedded player store beside the embedded log store (logFile): its queue keeps each log's keys and
// reads the log's message and metadata back from the log store, as the log store keeps them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogRecord, LogStore, QueuedLog } from '@skald/ports';
import { BlockLogStore, createLogStore } from '../src/log-store/index.ts';
import { SqlitePlayerStore } from '../src/player-store/index.ts';
import { packKeys } from '../src/player-store/sqlite-log-texts.ts';

const A = '0195f2c4-0000-7000-8000-00000000000a';
const B = '0195f2c4-0000-7000-8000-00000000000b';
const T0 = 1_750_000_000_000;

function record(id: string, serverId: string, at: number, message: string, metadata: LogRecord['metadata'], logType: LogRecord['logType'] = 'text'): LogRecord {
  return { id, serverId, createdAt: at, level: 'info', type: 'General', resource: 'core', message, metadata, logType, imageKey: null, thumbKey: null, expiresAt: at + 1_000 };
}

const queuedOf = (r: LogRecord): QueuedLog => ({ logId: r.id, serverId: r.serverId, at: r.createdAt, logType: r.logType, expiresAt: r.expiresAt, message: r.message, metadata: r.metadata });

// Both layouts of the embedded log store: rows, and blocks (of 2 rows, sealed at once: logs in blocks and in the
// tail), their texts one frame a block or in groups of one row with the stream's dictionary.
describe.each(['rows', 'blocks', 'blocks with texts in groups'] as const)('player queue read back from the log store (%s)', (layout) => {
  let dir: string;
  let logs: LogStore;
  let players: SqlitePlayerStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'skald-player-texts-'));
    logs =
      layout === 'rows'
        ? await createLogStore({ kind: 'sqlite', file: join(dir, 'logs.db'), layout: 'rows' })
        : new BlockLogStore(join(dir, 'logs.db'), { blockRows: 2, sealEagerly: true, walCheckpointer: null, ...(layout === 'blocks' ? {} : { textGroupRows: 1 }) });
    players = new SqlitePlayerStore(join(dir, 'players.db'), { logFile: join(dir, 'logs.db'), walCheckpointer: null });
  });

  afterEach(async () => {
    await players.close();
    await logs.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers each queued log as stored, metadata as its JSON text, in queue order across servers; a log not stored is skipped', async () => {
    const a1 = record('a1', A, T0 + 5, 'Ann joined license:ann', { player: { name: 'Ann', ids: ['license:ann', 'ip:1.2.3.4'] }, n: 1.5 });
    const b1 = record('b1', B, T0, 'a photo', null, 'photo');
    const a2 = record('a2', A, T0 + 1, 'ünïcode "quoted"\n', { nested: [[{ deep: true }], null], text: 'tab\there' });
    await logs.insertBatch([a1, b1, a2]);
    const never = record('gone', A, T0 + 9, 'never stored', null);
    await players.queue([a1, b1].map(queuedOf));
    await players.queue([never, a2].map(queuedOf));
    const page = await players.queued(100);
    expect(page.logs).toEqual([
      { ...queuedOf(a1), metadata: JSON.stringify(a1.metadata) },
      { ...queuedOf(b1), metadata: null },
      { ...queuedOf(a2), metadata: JSON.stringify(a2.metadata) },
    ]);
    // At least `limit` when that many wait, in whole queue entries.
    expect((await players.queued(1)).logs.map((log) => log.logId)).toEqual(['a1', 'b1']);
    await players.record([], page.through);
    expect(await players.queued(100)).toEqual({ logs: [], through: -1 });
  });

  it('keeps reading rows queued whole (before the log store was given) beside rows of keys', async () => {
    const whole = new SqlitePlayerStore(join(dir, 'players.db'), { walCheckpointer: null });
    const old = record('old', A, T0, 'old license:old', { k: 'v' });
    await whole.queue([queuedOf(old)]);
    await whole.close();
    const fresh = record('new', A, T0 + 1, 'new', { license: 'license:new' });
    await logs.insertBatch([fresh]);
    await players.queue([queuedOf(fresh)]);
    expect((await players.queued(100)).logs).toEqual([queuedOf(old), { ...queuedOf(fresh), metadata: JSON.stringify(fresh.metadata) }]);
  });

  it('writes valid JSON keys for ids of any shape and a time that is no number', () => {
    const odd = { ...queuedOf(record('id "with" \\ quotes\n', A, T0, 'm', null)), serverId: 'srv\t1' };
    const parsed = JSON.parse(packKeys([odd, { ...odd, at: Number.NaN }, { ...odd, serverId: B }])) as unknown;
    expect(parsed).toEqual({ k: [['srv\t1', odd.logId, T0, odd.logId, null], [B, odd.logId, T0]] });
    expect(JSON.parse(packKeys([]))).toEqual({ k: [] });
  });
});
