/**
 * A server's alert rules as one matcher, built once per set of rules (the evaluator keeps it between bus
 * reads, and builds a new one when the rules change), so that a log is tested only against what can still
 * tell it apart:
 *  - rules with the same filter share one entry;
 *  - filters naming a level, type or resource: for each distinct (type, resource, level) a log comes with,
 *    the filters whose three fields hold are worked out once and remembered (a server sends a few dozen
 *    such triples: alert-lookups.ts, one lookup of the type, then its few pairs compared rather than hashed;
 *    one lookup of the three joined into a key measured dearer, as it makes and hashes a new string per log),
 *    and only the filters that also name a search or metadata are tested further;
 *  - searches: one scan of the message finds which texts it holds (alert-search-scan.ts), for the filters of
 *    a search alone and for those of the filters above whose text the scan takes without shrinking its window,
 *    so no expression runs per filter for them; the others' texts are tested by their own expression, and only
 *    on the logs whose fields they match;
 *  - filters of metadata alone: found through their first key and its value (the values compared while few);
 *  - filters naming nothing (all logs) count every log.
 * Per log nothing is allocated, and no log is kept: a filter's last matching logs are kept as their places
 * in the call's array (typed arrays, no write barrier), and the caller hands the array back to read them, so
 * nothing of a call stays alive after it (a batch kept until the next call would be copied by every young
 * collection in between, with rules and not without).
 */
import type { AlertFilter } from '@skald/contracts';
import { metadataText, searchPattern } from './alert-filter.ts';
import type { PreparedLog } from './alert-filter.ts';
import { StringIndex, TripleMemo } from './alert-lookups.ts';
import { createSearchScan, slidesInWindow } from './alert-search-scan.ts';

type MatchableLog = Pick<PreparedLog, 'level' | 'type' | 'resource' | 'message' | 'metadata'>;

/**
 * The logs of one call that a filter matched: how many, the rules of that filter, and the last `sampleSize` of
 * them on demand. Valid until the next call of match (the matcher reuses it): read it before.
 */
export interface FilterMatches<R, L> {
  readonly rules: readonly R[];
  readonly count: number;
  /**
   * A new array of the last `sampleSize` matching logs, oldest first, taken from `logs`: the array given to
   * the call; made only when asked (a message needs them, a count does not).
   */
  sample(logs: readonly L[]): L[];
}

export interface RuleMatcher<R> {
  /** Per filter that matched at least one of `logs` (in no particular order): its rules, the count and the last `sampleSize` matching logs. */
  match<L extends MatchableLog>(logs: readonly L[]): FilterMatches<R, L>[];
}

/** A filter's matches of the last call: the slots of its ring of log places written from the first on in every call. */
class FilterView<R> implements FilterMatches<R, MatchableLog> {
  count = 0;
  readonly rules: readonly R[];
  readonly #ring: Int32Array;
  readonly #from: number;
  readonly #sampleSize: number;

  constructor(rules: readonly R[], ring: Int32Array, index: number, sampleSize: number) {
    this.rules = rules;
    this.#ring = ring;
    this.#from = index * sampleSize;
    this.#sampleSize = sampleSize;
  }

  sample(logs: readonly MatchableLog[]): MatchableLog[] {
    const n = this.count;
    const size = this.#sampleSize;
    // Oldest first: once the ring wrapped, its next slot holds the oldest.
    const kept = Math.min(n, size);
    const first = n <= size ? 0 : n % size;
    const out = new Array<MatchableLog>(kept);
    for (let k = 0; k < kept; k++) out[k] = logs[this.#ring[this.#from + ((first + k) % size)]!]!;
    return out;
  }
}

interface CompiledFilter<R> {
  /** Its place in the per-call tallies. */
  readonly index: number;
  readonly level: string | undefined;
  readonly type: string | undefined;
  readonly resource: string | undefined;
  /** Its search, or undefined. */
  readonly searchText: string | undefined;
  /** Its text's place in the search scan, or -1 (no search, or one tested by `search`). */
  scanText: number;
  /** The search as its own expression when the scan does not take it, or null. */
  search: RegExp | null;
  readonly metadata: readonly (readonly [string, string])[];
  readonly rules: R[];
}

/** Distinct (type, resource, level) triples remembered at most (a server sends a few dozen). */
const MAX_REMEMBERED = 4_096;

const holdsMetadata = (metadata: PreparedLog['metadata'], entries: readonly (readonly [string, string])[], from: number) => {
  for (let k = from; k < entries.length; k++) {
    const [key, value] = entries[k]!;
    const actual = metadata?.[key];
    if (actual === undefined || metadataText(actual) !== value) return false;
  }
  return true;
};

export function createRuleMatcher<R extends { readonly filter: AlertFilter }>(rules: readonly R[], sampleSize: number): RuleMatcher<R> {
  const distinct = new Map<string, CompiledFilter<R>>();
  for (const rule of rules) {
    const key = JSON.stringify(rule.filter);
    const known = distinct.get(key);
    if (known) {
      known.rules.push(rule);
      continue;
    }
    const { filter } = rule;
    distinct.set(key, {
      index: distinct.size,
      level: filter.level?.toLowerCase(),
      type: filter.type?.toLowerCase(),
      resource: filter.resource?.toLowerCase(),
      searchText: filter.search,
      scanText: -1,
      search: null,
      metadata: Object.entries(filter.metadata ?? {}),
      rules: [rule],
    });
  }
  const compiledByIndex = [...distinct.values()];
  const byFields: CompiledFilter<R>[] = [];
  const bySearch: CompiledFilter<R>[] = [];
  /** Metadata key -> value as text -> filters of metadata alone whose first entry it is. */
  const byMetadata = new Map<string, Map<string, CompiledFilter<R>[]>>();
  const everything: CompiledFilter<R>[] = [];
  for (const compiled of compiledByIndex) {
    if (compiled.level !== undefined || compiled.type !== undefined || compiled.resource !== undefined) byFields.push(compiled);
    else if (compiled.searchText !== undefined) bySearch.push(compiled);
    else if (compiled.metadata.length > 0) {
      const [name, value] = compiled.metadata[0]!;
      let byValue = byMetadata.get(name);
      if (byValue === undefined) byMetadata.set(name, (byValue = new Map()));
      const list = byValue.get(value);
      if (list === undefined) byValue.set(value, [compiled]);
      else list.push(compiled);
    } else everything.push(compiled);
  }

  // The scan runs on every message when filters of a search alone exist; a filter found by its fields has its
  // text scanned with theirs when that costs the scan nothing much: a text of the sliding window no shorter
  // than its window (a shorter one would shorten every jump). The others keep their own expression.
  const texts: string[] = [];
  const textIndex = new Map<string, number>();
  const scanTextOf = (text: string) => {
    let place = textIndex.get(text);
    if (place === undefined) textIndex.set(text, (place = texts.push(text) - 1));
    return place;
  };
  for (const compiled of bySearch) compiled.scanText = scanTextOf(compiled.searchText!);
  const windowLengths = texts.filter(slidesInWindow).map((text) => text.length);
  const window = windowLengths.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...windowLengths);
  for (const compiled of byFields) {
    const text = compiled.searchText;
    if (text === undefined) continue;
    if (slidesInWindow(text) && text.length >= window) compiled.scanText = scanTextOf(text);
    else compiled.search = searchPattern([text]);
  }
  const metadataKeys = [...byMetadata.keys()];
  const metadataValues = [...byMetadata.values()].map((byValue) => new StringIndex(byValue));
  const scan = texts.length === 0 ? null : createSearchScan(texts);

  const fieldsHold = (type: string, resource: string, level: string): readonly CompiledFilter<R>[] => {
    const lowerType = type.toLowerCase();
    const lowerResource = resource.toLowerCase();
    const lowerLevel = level.toLowerCase();
    return byFields.filter(
      (f) => (f.type === undefined || f.type === lowerType) && (f.resource === undefined || f.resource === lowerResource) && (f.level === undefined || f.level === lowerLevel),
    );
  };
  /** (type, resource, level) as logs bring them -> the byFields filters whose level, type and resource hold. */
  const triples = new TripleMemo<readonly CompiledFilter<R>[]>(MAX_REMEMBERED);

  // Tallies kept between calls (a call starts them at zero for the filters the last one touched): no
  // allocation per call but the answer itself. A filter's ring holds the places of its last matching logs.
  const counts = new Int32Array(compiledByIndex.length);
  const rings = new Int32Array(compiledByIndex.length * sampleSize);
  const views = compiledByIndex.map((compiled, index) => new FilterView(compiled.rules, rings, index, sampleSize));
  const touched: number[] = [];
  const count = (compiled: CompiledFilter<R>, place: number) => {
    const index = compiled.index;
    const seen = counts[index]!;
    if (seen === 0) touched.push(index);
    counts[index] = seen + 1;
    rings[index * sampleSize + (seen % sampleSize)] = place;
  };

  return {
    match(logs) {
      type Log = (typeof logs)[number];
      for (let i = 0; i < logs.length; i++) {
        const log = logs[i]!;
        const held = scan !== null && scan.scan(log.message);
        if (byFields.length > 0) {
          const candidates = triples.get(log.type, log.resource, log.level, fieldsHold);
          for (let c = 0; c < candidates.length; c++) {
            const compiled = candidates[c]!;
            if (compiled.scanText >= 0 ? !held || !scan!.holds(compiled.scanText) : compiled.search !== null && !compiled.search.test(log.message)) continue;
            if (compiled.metadata.length > 0 && !holdsMetadata(log.metadata, compiled.metadata, 0)) continue;
            count(compiled, i);
          }
        }
        if (held) {
          for (let c = 0; c < bySearch.length; c++) {
            const compiled = bySearch[c]!;
            if (!scan!.holds(compiled.scanText)) continue;
            if (compiled.metadata.length > 0 && !holdsMetadata(log.metadata, compiled.metadata, 0)) continue;
            count(compiled, i);
          }
        }
        if (metadataKeys.length > 0 && log.metadata !== null) {
          for (let k = 0; k < metadataKeys.length; k++) {
            const actual = log.metadata[metadataKeys[k]!];
            if (actual === undefined) continue;
            const candidates = metadataValues[k]!.get(metadataText(actual));
            if (candidates === undefined) continue;
            for (let c = 0; c < candidates.length; c++) if (holdsMetadata(log.metadata, candidates[c]!.metadata, 1)) count(candidates[c]!, i);
          }
        }
        for (let c = 0; c < everything.length; c++) count(everything[c]!, i);
      }
      const found: FilterMatches<R, Log>[] = [];
      for (const index of touched) {
        const view = views[index]!;
        view.count = counts[index]!;
        // The ring holds places in this call's logs (of type Log) up to `count`: one beyond it is never read.
        found.push(view as FilterMatches<R, Log>);
        counts[index] = 0;
      }
      touched.length = 0;
      return found;
    },
  };
}
