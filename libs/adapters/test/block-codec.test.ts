import { describe, expect, it } from 'vitest';
import type { LogRecord } from '@skald/ports';
import { promisify } from 'node:util';
import { zstdCompress, zstdDecompressSync } from 'node:zlib';
import { ByteReader, ByteWriter, zstdContentSize } from '../src/log-store/block-bytes.ts';
import { BlockText, TEXT_GROUP_ROWS, decodeBlock, decodeBlockKeys, decodeBlockMeta, encodeBlock, encodeBlockAsync, rowOf, textDictionaryOf } from '../src/log-store/block-codec.ts';

const zstdCompressAsync = promisify(zstdCompress);
const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

/** A UUIDv7 of `createdAt` with the given random tail (as ingestion mints them). */
function uuidv7(createdAt: number, tail: number): string {
  const hex = createdAt.toString(16).padStart(12, '0') + '7' + tail.toString(16).padStart(19, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function record(i: number, overrides: Partial<LogRecord> = {}): LogRecord {
  const createdAt = T0 + i * 1000;
  return {
    id: uuidv7(createdAt, 0x8abc_0000 + i),
    serverId: 'srv',
    createdAt,
    level: i % 3 === 0 ? 'warn' : 'info',
    type: i % 2 === 0 ? 'Chat' : 'Join',
    resource: 'skald',
    message: `player_${i} joined`,
    metadata: i % 2 === 0 ? null : { player: { name: `P${i}`, identifiers: [`license:${i}`] } },
    logType: 'text',
    imageKey: null,
    thumbKey: null,
    expiresAt: createdAt + 60 * DAY,
    ...overrides,
  };
}

describe('block codec', () => {
  it('gives back every record as stored, in (createdAt, id) order', () => {
    const records = [
      record(3),
      record(1, { receivedAt: T0 + 1000 + 250 }),
      // Received at its createdAt: answered without receivedAt, as the LogStore contract says.
      record(2, { receivedAt: T0 + 2000 }),
      record(0, { message: 'Zoë a gagné 5€ \u0000 after a NUL', metadata: { nested: { quote: '"', list: [1, null, 'x'] } } }),
      record(4, { logType: 'photo', imageKey: 'photos/srv/a.webp', thumbKey: 'photos/srv/a-thumb.webp', message: '' }),
      // Same createdAt as record 4: ordered by id.
      record(4, { id: uuidv7(T0 + 4000, 0x8abc_0001), level: 'error', type: '', resource: '' }),
    ];
    const block = encodeBlock(records);
    const decoded = decodeBlock('srv', block.meta, block.text);
    const expected = [...records]
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
      .map((r) => {
        if (r.receivedAt !== r.createdAt) return r;
        const { receivedAt: _, ...rest } = r;
        return rest;
      });
    expect(decoded).toEqual(expected);
    expect(block.rows.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  });

  it('keeps ids that are not lower-case UUIDs as text', () => {
    const records = [record(0, { id: 'custom-id-1' }), record(1, { id: 'A1B2C3D4-0000-7000-8000-000000000000' }), record(2)];
    const decoded = decodeBlock('srv', ...(({ meta, text }) => [meta, text] as const)(encodeBlock(records)));
    expect(decoded.map((r) => r.id)).toEqual(records.map((r) => r.id));
  });

  it('keeps a UUID whose timestamp is not its createdAt (a client time) and times before 1970', () => {
    const records = [record(0, { id: uuidv7(T0 + 5 * DAY, 7) }), record(1, { createdAt: -1500, expiresAt: 10 })];
    const block = encodeBlock(records);
    const decoded = decodeBlock('srv', block.meta, block.text);
    expect(decoded.map((r) => [r.id, r.createdAt, r.expiresAt])).toEqual(block.rows.map((r) => [r.id, r.createdAt, r.expiresAt]));
  });

  it('refuses times that are not whole milliseconds', () => {
    expect(() => encodeBlock([record(0, { createdAt: T0 + 0.5 })])).toThrow(RangeError);
  });

  it('costs a UUIDv7 log its 10 random bytes and little else beside the text', () => {
    const records = Array.from({ length: 4096 }, (_, i) => record(i));
    const block = encodeBlock(records);
    // 10 random bytes of each id (incompressible), ~1 B of time and codes.
    expect(block.meta.length / records.length).toBeLessThan(13);
    expect(decodeBlockMeta(block.meta).n).toBe(4096);
  });

  it('slices one row out of the text, and finds the row of a byte offset', () => {
    const records = [record(0, { message: 'alpha' }), record(1, { message: 'beta', metadata: { k: 'v' } })];
    const block = encodeBlock(records);
    const text = new BlockText(block.text, 2);
    expect(text.message(1)).toBe('beta');
    expect(text.metadataJson(0)).toBe('');
    expect(text.metadataJson(1)).toBe('{"k":"v"}');
    const bytes = text.bytes.toString('latin1');
    expect(text.rowAt(bytes.indexOf('beta'))).toEqual({ row: 1, inMetadata: false });
    expect(text.rowAt(bytes.indexOf('"v"'))).toEqual({ row: 1, inMetadata: true });
    expect(text.rowAt(bytes.indexOf('alpha'))).toEqual({ row: 0, inMetadata: false });
  });

  it('decodes the rows\' keys alone as the whole meta does, UUID and text ids, and tells where each segment ends', () => {
    for (const records of [Array.from({ length: 50 }, (_, i) => record(i)), [record(0, { id: 'custom-id-1' }), record(1, { id: uuidv7(T0 + 5 * DAY, 7) }), record(2)]]) {
      const block = encodeBlock(records);
      const columns = decodeBlockMeta(block.meta);
      const keys = decodeBlockKeys(block.meta);
      expect(Array.from(keys.createdAt)).toEqual(Array.from(columns.createdAt));
      expect(Array.from({ length: keys.n }, (_, i) => keys.idAt(i))).toEqual(columns.id);
    }
    const text = new BlockText(encodeBlock([record(0, { message: 'alpha' }), record(1, { message: 'beta' })]).text, 2);
    expect(text.segmentEnd(0)).toBe(5);
    expect(text.segmentEnd(5)).toBe(9);
  });

  it('reads one row of the meta frame as the whole decode gives it: keys, codes past 128 values, photo keys, receivedAt, text ids', () => {
    const many = Array.from({ length: 300 }, (_, i) =>
      record(i, {
        type: `type-${i % 150}`,
        ...(i % 7 === 0 ? { receivedAt: T0 + i * 1000 + 3 } : {}),
        ...(i === 200 ? { logType: 'photo' as const, imageKey: 'photos/srv/a.webp', thumbKey: null } : {}),
        ...(i % 97 === 1 ? { expiresAt: T0 - 5 } : {}),
      }),
    );
    for (const records of [many, [record(0, { id: 'custom-id-1' }), record(1)], many.slice(0, 20)]) {
      const block = encodeBlock(records);
      const text = new BlockText(block.text, records.length);
      const whole = decodeBlock('srv', block.meta, block.text);
      // Rows read one at a time, from a fresh frame each, then from one frame in any order.
      whole.forEach((r, i) => expect(decodeBlockKeys(block.meta).record('srv', text, i)).toEqual(r));
      const meta = decodeBlockKeys(block.meta);
      for (const i of [records.length - 1, 0, Math.floor(records.length / 2)]) {
        expect(meta.record('srv', text, i)).toEqual(whole[i]);
        expect(meta.level(i)).toBe(whole[i]!.level);
      }
      expect(meta.columns().type).toEqual(whole.map((r) => r.type));
    }
  });

  it('finds a row by its key and by its id alone, among rows stamped the same millisecond, and no row for a key it does not hold', () => {
    // Three logs in the same millisecond (a burst), a client time older than the rest, and ids of both kinds.
    const records = [
      ...Array.from({ length: 40 }, (_, i) => record(i)),
      record(50, { createdAt: T0 + 7000, id: uuidv7(T0 + 7000, 0x1) }),
      record(51, { createdAt: T0 + 7000, id: uuidv7(T0 + 7000, 0x2) }),
      record(52, { createdAt: T0 + 7000, id: 'custom-id-at-7000' }),
      record(53, { createdAt: T0 - DAY, id: uuidv7(T0 + 3 * DAY, 0x3) }),
    ];
    for (const block of [encodeBlock(records), encodeBlock(records.filter((r) => !r.id.startsWith('custom')))]) {
      const keys = decodeBlockKeys(block.meta);
      block.rows.forEach((r, row) => {
        expect(rowOf(keys, r.createdAt, r.id)).toBe(row);
        expect(keys.indexOfId(r.id)).toBe(row);
      });
      // The right id at another time, a time held by another id, an id in upper case, times past both ends.
      const known = block.rows[20]!;
      expect(rowOf(keys, known.createdAt + 1, known.id)).toBe(-1);
      expect(rowOf(keys, known.createdAt, block.rows[21]!.id)).toBe(-1);
      expect(rowOf(keys, T0 - 2 * DAY, known.id)).toBe(-1);
      expect(rowOf(keys, T0 + 100 * DAY, known.id)).toBe(-1);
      expect(keys.indexOfId(known.id.toUpperCase())).toBe(-1);
      expect(keys.indexOfId(uuidv7(known.createdAt, 0xfff))).toBe(-1);
    }
  });

  it('encodes an empty block', () => {
    const block = encodeBlock([]);
    expect(decodeBlock('srv', block.meta, block.text)).toEqual([]);
  });

  describe('text in groups with a stream dictionary', () => {
    // Two full groups and a short one; row 1,500 has null metadata (even), 1,501 has some.
    const records = Array.from({ length: 2 * TEXT_GROUP_ROWS + 300 }, (_, i) => record(i, i === 7 ? { message: 'Zoë 5€ \u0000' } : {}));
    const dictionary = textDictionaryOf(records.slice(0, TEXT_GROUP_ROWS + 10).reverse())!;
    const dictionaries = (id: number): Buffer => {
      if (id !== dictionary.id) throw new Error(`no dictionary ${id}`);
      return dictionary.bytes;
    };

    it('gives back every record as the one frame does, and the whole text in the one frame\'s layout', async () => {
      const one = encodeBlock(records);
      const grouped = encodeBlock(records, undefined, dictionary);
      expect(grouped.text[0]).toBe(1);
      expect(decodeBlock('srv', grouped.meta, grouped.text, dictionaries)).toEqual(decodeBlock('srv', one.meta, one.text));
      const asynchronously = await encodeBlockAsync(records, undefined, dictionary);
      // The stream's frames need not be byte for byte the one call's: the same rows.
      expect(decodeBlock('srv', asynchronously.meta, asynchronously.text, dictionaries)).toEqual(decodeBlock('srv', one.meta, one.text));
      const whole = new BlockText(one.text, records.length);
      const groups = new BlockText(grouped.text, records.length, true, dictionaries);
      expect(groups.bytes.equals(whole.bytes)).toBe(true);
      for (const offset of [0, 5, whole.bytes.length - 1, Math.floor(whole.bytes.length / 2)]) {
        expect(groups.rowAt(offset)).toEqual(whole.rowAt(offset));
        expect(groups.segmentEnd(offset)).toBe(whole.segmentEnd(offset));
      }
    });

    it('decodes only the group of the row it reads', () => {
      const grouped = encodeBlock(records, undefined, dictionary);
      const text = new BlockText(grouped.text, records.length, true, dictionaries);
      expect(text.groupsDecoded).toBe(0);
      expect(text.message(TEXT_GROUP_ROWS + 501)).toBe(`player_${TEXT_GROUP_ROWS + 501} joined`);
      expect(text.metadataJson(TEXT_GROUP_ROWS + 501)).toBe(JSON.stringify(records[TEXT_GROUP_ROWS + 501]!.metadata));
      expect(text.metadataJson(TEXT_GROUP_ROWS + 500)).toBe('');
      expect(text.groupsDecoded).toBe(1);
      expect(text.message(2 * TEXT_GROUP_ROWS + 299)).toBe(`player_${2 * TEXT_GROUP_ROWS + 299} joined`);
      expect(text.message(7)).toBe('Zoë 5€ \u0000');
      expect(text.groupsDecoded).toBe(3);
    });

    it("decodes the groups of a page's rows in one call, as each group alone gives them, and none already decoded", () => {
      const grouped = encodeBlock(records, undefined, dictionary);
      const one = new BlockText(encodeBlock(records).text, records.length);
      const text = new BlockText(grouped.text, records.length, true, dictionaries);
      const rows = [2 * TEXT_GROUP_ROWS + 299, 5, 7, 2 * TEXT_GROUP_ROWS];
      text.readRows(rows);
      expect(text.groupsDecoded).toBe(2);
      for (const row of rows) {
        expect(text.message(row)).toBe(one.message(row));
        expect(text.metadataJson(row)).toBe(one.metadataJson(row));
      }
      expect(text.groupsDecoded).toBe(2);
      text.readRows([TEXT_GROUP_ROWS + 1, 8]);
      expect(text.groupsDecoded).toBe(3);
      expect(text.metadataJson(TEXT_GROUP_ROWS + 1)).toBe(one.metadataJson(TEXT_GROUP_ROWS + 1));
      expect(text.bytes.equals(one.bytes)).toBe(true);
      // Made whole (a search's read), the text answers rows from the whole, its groups let go.
      expect(text.groupsDecoded).toBe(3);
      for (const row of [...rows, TEXT_GROUP_ROWS + 1]) expect([text.message(row), text.metadataJson(row)]).toEqual([one.message(row), one.metadataJson(row)]);
      // A one-frame text is decoded whole already: nothing to do.
      one.readRows(rows);
      expect(one.message(7)).toBe('Zoë 5€ \u0000');
    });

    it('reads groups whose frames state no size (compressed by a stream without the size pledged) one by one', async () => {
      const grouped = encodeBlock(records, undefined, dictionary);
      // The grouped text's head (tag, dictionary, rows a group, frames and their lengths) with each frame
      // compressed again without its size in the header.
      const r = new ByteReader(grouped.text);
      const head = [r.varint(), r.varint(), r.varint()];
      const lengths = Array.from({ length: r.varint() }, () => r.varint());
      const frames = lengths.map((length) => r.bytes(length));
      const sizeless = await Promise.all(frames.map(async (f) => zstdCompressAsync(zstdDecompressSync(f, { dictionary: dictionary.bytes }), { dictionary: dictionary.bytes })));
      expect(frames.map((f) => zstdContentSize(f))).toEqual(frames.map((f) => zstdDecompressSync(f, { dictionary: dictionary.bytes }).length));
      expect(sizeless.map((f) => zstdContentSize(f))).toEqual([undefined, undefined, undefined]);
      const w = new ByteWriter();
      for (const v of [...head, sizeless.length, ...sizeless.map((f) => f.length)]) w.varint(v);
      for (const f of sizeless) w.bytes(f);
      const text = new BlockText(w.done(), records.length, true, dictionaries);
      const one = new BlockText(encodeBlock(records).text, records.length);
      text.readRows([1, 2 * TEXT_GROUP_ROWS + 1]);
      expect(text.groupsDecoded).toBe(2);
      expect(text.metadataJson(2 * TEXT_GROUP_ROWS + 1)).toBe(one.metadataJson(2 * TEXT_GROUP_ROWS + 1));
      expect(text.message(1)).toBe(one.message(1));
      expect(decodeBlock('srv', grouped.meta, w.done(), dictionaries)).toEqual(decodeBlock('srv', grouped.meta, grouped.text, dictionaries));
    });

    it('writes frames that state their decompressed size, in one call and across the thread pool', async () => {
      const stated = (frame: Uint8Array, dictionary?: Buffer): void => expect(zstdContentSize(frame)).toBe(zstdDecompressSync(frame, dictionary === undefined ? {} : { dictionary }).length);
      for (const block of [encodeBlock(records), await encodeBlockAsync(records)]) {
        stated(block.meta);
        stated(block.text);
      }
      const grouped = await encodeBlockAsync(records, undefined, dictionary);
      stated(grouped.meta);
      const r = new ByteReader(grouped.text);
      r.varint();
      r.varint();
      r.varint();
      const lengths = Array.from({ length: r.varint() }, () => r.varint());
      for (const length of lengths) stated(r.bytes(length), dictionary.bytes);
      expect(zstdContentSize(Buffer.from('not a frame'))).toBeUndefined();
      expect(zstdContentSize(grouped.text)).toBeUndefined();
    });

    it('makes no dictionary of fewer rows than a group, and names the dictionary a grouped text needs', () => {
      expect(textDictionaryOf(records.slice(0, TEXT_GROUP_ROWS - 1))).toBeNull();
      expect(textDictionaryOf(records.slice(0, TEXT_GROUP_ROWS))!.id).toBe(dictionary.id);
      const grouped = encodeBlock(records, undefined, dictionary);
      expect(() => new BlockText(grouped.text, records.length)).toThrow(`needs its dictionary ${dictionary.id}`);
      // A block of fewer rows than a group is one group.
      const small = encodeBlock(records.slice(0, 5), undefined, dictionary);
      expect(decodeBlock('srv', small.meta, small.text, dictionaries)).toEqual(decodeBlock('srv', ...(({ meta, text }) => [meta, text] as const)(encodeBlock(records.slice(0, 5)))));
    });
  });
});
