import { describe, expect, it } from 'vitest';
import type { LogRecord } from '@skald/ports';
import { RareRows, encodeRareRows } from '../src/log-store/block-rare.ts';

const T0 = Date.UTC(2025, 4, 1);

function record(i: number, type: string, resource = 'core'): LogRecord {
  return {
    id: `id-${String(i).padStart(5, '0')}`,
    serverId: '',
    createdAt: T0 + i,
    ...(i % 3 === 0 ? { receivedAt: T0 + i + 5 } : {}),
    level: i % 2 === 0 ? 'info' : 'WARN',
    type,
    resource,
    message: `message ${i} of ${type}`,
    metadata: i % 4 === 0 ? null : { n: i, who: 'Zoë' },
    logType: i % 5 === 0 ? 'photo' : 'text',
    imageKey: i % 5 === 0 ? `img/${i}` : null,
    thumbKey: i % 5 === 0 ? `thumb/${i}` : null,
    expiresAt: T0 + i + 86_400_000,
  };
}

describe('block rare rows', () => {
  it('keeps the whole rows of the values 4 rows or fewer hold, ASCII case folded, and answers them as the block would', () => {
    const rows = Array.from({ length: 400 }, (_, i) => record(i, i % 50 === 7 ? (i % 100 === 7 ? 'Refund' : 'REFUND') : i % 101 === 3 ? 'Ban' : 'Chat', i === 200 ? 'anticheat' : 'core'));
    const rare = RareRows.decode(encodeRareRows(rows, 3));
    // refund: 8 rows, not rare; ban: 4 rows; the resource anticheat: 1.
    expect(rare.covers({ type: 'refund' })).toBe(false);
    expect(rare.covers({ type: 'ban' })).toBe(true);
    expect(rare.covers({ resource: 'anticheat' })).toBe(true);
    expect(rare.covers({ type: 'chat' })).toBe(false);
    expect(rare.covers({ type: 'ban', needle: 'a\0b' })).toBe(false);
    const bans = rows.flatMap((r, i) => (r.type === 'Ban' ? [i] : []));
    const ban = rare.matches({ type: 'ban' }).map((k) => rare.positions[k]!);
    expect(ban).toEqual(bans);
    expect(rare.matches({ type: 'ban' }).map((k) => rare.record('srv', k))).toEqual(bans.map((i) => ({ ...rows[i]!, serverId: 'srv' })));
    // The search by LIKE's rules over message, metadata JSON, type, level and resource; the other filters.
    expect(rare.matches({ type: 'ban', needle: 'zoë' }).map((k) => rare.positions[k]!)).toEqual(bans.filter((i) => rows[i]!.metadata !== null));
    expect(rare.matches({ resource: 'anticheat', needle: 'warn' }).map((k) => rare.positions[k]!)).toEqual([]);
    expect(rare.matches({ resource: 'anticheat', needle: 'anti', level: 'info' }).map((k) => rare.positions[k]!)).toEqual([200]);
  });

  it('keeps at most an eighth of a block again, the values with the fewest rows first; nothing when none is rare', () => {
    // 1,024 rows of 256 types of 4 rows each, and 8 types of 1 row: all rare, 128 rows kept at most.
    const rows = [...Array.from({ length: 1024 }, (_, i) => record(i, `t${i % 256}`)), ...Array.from({ length: 8 }, (_, i) => record(1024 + i, `single${i}`))];
    const rare = RareRows.decode(encodeRareRows(rows, 3));
    expect(rare.positions.length).toBeLessThanOrEqual(1032 / 8);
    for (let i = 0; i < 8; i++) expect(rare.covers({ type: `single${i}` })).toBe(true);
    const covered = Array.from({ length: 256 }, (_, t) => rare.covers({ type: `t${t}` })).filter(Boolean).length;
    expect(covered).toBe(Math.floor((Math.floor(1032 / 8) - 8) / 4));
    expect(encodeRareRows(Array.from({ length: 100 }, (_, i) => record(i, 'Chat')), 3)).toHaveLength(0);
    expect(RareRows.decode(new Uint8Array(0)).covers({ type: 'chat' })).toBe(false);
  });
});
