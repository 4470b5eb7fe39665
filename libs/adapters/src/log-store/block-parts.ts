/**
 * The parts of the block log store (docs/STORAGE.md, "The layout"): a part dictionary (block-part-dictionary.ts)
 * over consecutive blocks of one server's stream, so that a search asks one part about up to 512 blocks instead
 * of each block's own dictionary.
 *
 * Tiers, as a log-structured merge: once a stream has `fanout` (8) blocks in no part, the oldest of them get a
 * tier-0 part; once it has `fanout` parts of a tier, they are merged into one of the next tier (8 -> 64 -> 512
 * blocks) and dropped, so each block is in one part at most, and a stream's blocks sit in a few large parts plus
 * a few small ones and at most `fanout - 1` blocks in none. A part is built from its blocks' own dictionaries
 * (never from the parts it replaces), so a merge makes its counts exact again.
 *
 * A part row lists its blocks' ids by position. A delete that drops a block zeroes its position; one that
 * rewrites a block without some rows puts the new block's id at the position and marks it inexact, in the
 * delete's transaction (BlockDirectory.remove). The rewritten block's words are a subset of the old one's, so
 * the part's "no row holds it" stays true and only its row counts there may be too high: an inexact position's
 * exact verdict is read as "ask the block". Block ids are never reused (AUTOINCREMENT), and a block's content
 * never changes under its id, so a part can never say "absent" of a word one of its blocks holds.
 *
 * Parts are derived data: written in transactions of their own by the sealer's turn, after the seal (a crash
 * between the two leaves blocks in no part, which the next build picks up), and built on open for a file whose
 * blocks have none (BlockLogStore: in the background; reads ask the block dictionaries meanwhile).
 */
import type { BlockConnection } from './block-store-connection.ts';
import type { BlockWords, PartVerdict } from './block-part-dictionary.ts';
import { PartDictionary, PartDictionaryBuilder, partVerdicts } from './block-part-dictionary.ts';
import { Lru } from './block-lru.ts';
import { num, str } from './sqlite-log-rows.ts';

/** Blocks of a tier-0 part, and parts of a tier merged into one of the next. */
export const PART_FANOUT = 8;
/** The highest tier: parts of fanout^(PART_TOP_TIER + 1) blocks (512) are never merged further. */
export const PART_TOP_TIER = 2;

export interface PartEntry {
  readonly partId: number;
  readonly stream: string;
  readonly tier: number;
  readonly firstBlock: number;
  /** The block at each position of the part's dictionary; 0 where that block was dropped. */
  readonly ids: readonly number[];
  /** Positions whose block was rewritten without some of its rows: the dictionary's counts there may be too high. */
  readonly inexact: ReadonlySet<number>;
}

interface ServerParts {
  readonly parts: readonly PartEntry[];
  readonly byBlock: ReadonlyMap<number, { readonly part: PartEntry; readonly position: number }>;
}

/** What the parts need of the blocks: their streams and ids, and a block's words with their row counts. */
export interface PartSource {
  /** The server's blocks (any order). */
  blocks(serverKey: number): readonly { readonly blockId: number; readonly stream: string }[];
  words(blockId: number): BlockWords;
}

/** A part to build: its tier, its blocks, and the parts it replaces. */
interface PartStep {
  readonly tier: number;
  readonly ids: readonly number[];
  readonly replaces: readonly PartEntry[];
}

/** Each part's verdicts on one needle, computed once per query (null: the needle has no piece a part can look up). */
export type PartVerdictMemo = Map<number, PartVerdict[] | null>;

export class BlockParts {
  readonly #conn: BlockConnection;
  readonly #source: PartSource;
  readonly #fanout: number;
  readonly #servers = new Map<number, ServerParts>();
  // Decoded parts of recent searches (each also keeps the entry chunks it decompressed): a million-log server
  // has a few dozen parts.
  readonly #dictionaries = new Lru<PartDictionary>(48);

  constructor(conn: BlockConnection, source: PartSource, fanout = PART_FANOUT) {
    if (!Number.isSafeInteger(fanout) || fanout < 2) throw new RangeError('part fanout must be an integer >= 2');
    this.#conn = conn;
    this.#source = source;
    this.#fanout = fanout;
  }

  #server(serverKey: number): ServerParts {
    let server = this.#servers.get(serverKey);
    if (server === undefined) {
      const parts: PartEntry[] = this.#conn
        .prepare('SELECT part_id, stream, tier, first_block, ids, inexact FROM parts WHERE server_key = ?')
        .all(serverKey)
        .map((row) => ({
          partId: num(row['part_id']),
          stream: str(row['stream']),
          tier: num(row['tier']),
          firstBlock: num(row['first_block']),
          ids: JSON.parse(str(row['ids'])) as number[],
          inexact: new Set(JSON.parse(str(row['inexact'])) as number[]),
        }));
      const byBlock = new Map<number, { part: PartEntry; position: number }>();
      for (const part of parts) part.ids.forEach((id, position) => id !== 0 && byBlock.set(id, { part, position }));
      this.#servers.set(serverKey, (server = { parts, byBlock }));
    }
    return server;
  }

  /**
   * What the part holding the block says of the needle there; null when the block is in no part or no piece of
   * the needle can be looked up. `memo` keeps each part's verdicts for the rest of the query.
   */
  verdict(serverKey: number, blockId: number, needle: string, memo: PartVerdictMemo): PartVerdict | null {
    const at = this.#server(serverKey).byBlock.get(blockId);
    if (at === undefined) return null;
    let verdicts = memo.get(at.part.partId);
    if (verdicts === undefined) {
      const dictionary = this.#dictionaries.get(at.part.partId, () => new PartDictionary(this.#blob(at.part.partId)));
      verdicts = partVerdicts(dictionary, at.part.ids.length, needle);
      memo.set(at.part.partId, verdicts);
    }
    const verdict = verdicts?.[at.position];
    if (verdict === undefined) return null;
    return verdict.kind === 'exact' && at.part.inexact.has(at.position) ? { kind: 'block' } : verdict;
  }

  #blob(partId: number): Uint8Array {
    const blob = this.#conn.prepare('SELECT words FROM parts WHERE part_id = ?').get(partId)?.['words'];
    if (!(blob instanceof Uint8Array)) throw new Error(`block log store: part ${partId} has no words`);
    return blob;
  }

  /**
   * A block left (`replacedBy` null) or was rewritten into block `replacedBy`: its part, if any, follows, inside
   * the caller's transaction. A part left with no block is dropped.
   */
  replaced(serverKey: number, blockId: number, replacedBy: number | null): void {
    const at = this.#server(serverKey).byBlock.get(blockId);
    if (at === undefined) return;
    this.#servers.delete(serverKey);
    const ids = [...at.part.ids];
    ids[at.position] = replacedBy ?? 0;
    const inexact = new Set(at.part.inexact);
    if (replacedBy === null) inexact.delete(at.position);
    else inexact.add(at.position);
    if (ids.every((id) => id === 0)) this.#conn.prepare('DELETE FROM parts WHERE part_id = ?').run(at.part.partId);
    else this.#conn.prepare('UPDATE parts SET ids = ?, inexact = ? WHERE part_id = ?').run(JSON.stringify(ids), JSON.stringify([...inexact].sort((a, b) => a - b)), at.part.partId);
  }

  /** Whether a part holds the block (a block in none may still be merged into another: block-writes.ts). */
  holds(serverKey: number, blockId: number): boolean {
    return this.#server(serverKey).byBlock.has(blockId);
  }

  /** Forgets the cached parts of every server (after a rolled-back transaction). */
  forget(): void {
    this.#servers.clear();
  }

  /** The next part the stream is due: a merge of `fanout` parts of the lowest tier that has them, else a tier-0 part. */
  #next(serverKey: number, stream: string): PartStep | null {
    const parts = this.#server(serverKey).parts.filter((p) => p.stream === stream);
    for (let tier = 0; tier < PART_TOP_TIER; tier++) {
      const group = parts.filter((p) => p.tier === tier).sort((a, b) => a.firstBlock - b.firstBlock);
      if (group.length >= this.#fanout) {
        const replaces = group.slice(0, this.#fanout);
        return { tier: tier + 1, ids: replaces.flatMap((p) => p.ids.filter((id) => id !== 0)), replaces };
      }
    }
    const covered = this.#server(serverKey).byBlock;
    const free = this.#source
      .blocks(serverKey)
      .filter((b) => b.stream === stream && !covered.has(b.blockId))
      .map((b) => b.blockId)
      .sort((a, b) => a - b);
    return free.length >= this.#fanout ? { tier: 0, ids: free.slice(0, this.#fanout), replaces: [] } : null;
  }

  /**
   * Builds the parts the stream is due (at most `most`), a block's words per turn of the event loop and the
   * encoding in slices (a part of 512 blocks took ~1 s in one piece), each part written in a transaction of its own. The caller keeps deletes and seals from running meanwhile (the store's turns).
   */
  async build(serverKey: number, stream: string, stop: () => boolean, most = Number.POSITIVE_INFINITY): Promise<number> {
    let built = 0;
    for (;;) {
      if (stop() || built >= most) return built;
      const step = this.#next(serverKey, stream);
      if (step === null) return built;
      const builder = new PartDictionaryBuilder();
      for (const id of step.ids) {
        builder.add(this.#source.words(id));
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (stop()) return built;
      }
      const words = step.ids.length === 0 ? null : await builder.encodeAsync();
      if (stop()) return built;
      try {
        // A reset of the WAL under way, or the write lock taken: this write waits off the event loop, not in
        // SQLite's busy handler.
        await this.#conn.write(() => {
          for (const part of step.replaces) this.#conn.prepare('DELETE FROM parts WHERE part_id = ?').run(part.partId);
          if (words !== null) {
            this.#conn
              .prepare("INSERT INTO parts (server_key, stream, tier, first_block, ids, inexact, words) VALUES (?, ?, ?, ?, ?, '[]', ?)")
              .run(serverKey, stream, step.tier, Math.min(...step.ids), JSON.stringify(step.ids), words);
          }
        });
      } finally {
        this.#servers.delete(serverKey);
      }
      built++;
    }
  }

  /** Parts per tier (tests and diagnostics). */
  counts(): number[] {
    const out = Array.from({ length: PART_TOP_TIER + 1 }, () => 0);
    for (const row of this.#conn.prepare('SELECT tier, count(*) AS n FROM parts GROUP BY tier').all()) out[num(row['tier'])] = num(row['n']);
    return out;
  }
}
