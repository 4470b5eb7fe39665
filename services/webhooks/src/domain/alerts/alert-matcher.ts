/**
 * A server's alert rules as one matcher, built once per set of rules (the evaluator keeps it between bus
 * reads), so that a log is tested only against what can still tell it apart:
 *  - rules with the same filter share one entry;
 *  - filters naming a level, type or resource: for each distinct (type, resource, level) a log comes with,
 *    the filters whose three fields hold are worked out once and remembered (a server sends a few dozen
 *    such triples); a log then costs three map lookups, and only the filters that also name a search or
 *    metadata are tested further;
 *  - filters of a search (and maybe metadata) alone: one scan of the message finds which of their texts it
 *    holds (alert-search-scan.ts), so no expression runs per filter;
 *  - filters of metadata alone: found through a map of their first key and value;
 *  - filters naming nothing (all logs) count every log.
 * Per log nothing is allocated: tallies are typed arrays and rings kept between calls.
 */
import type { AlertFilter } from '@skald/contracts';
import { metadataText, searchPattern } from './alert-filter.ts';
import type { PreparedLog } from './alert-filter.ts';
import { createSearchScan } from './alert-search-scan.ts';

type MatchableLog = Pick<PreparedLog, 'level' | 'type' | 'resource' | 'message' | 'metadata'>;

/**
 * The logs of one call that a filter matched: how many, the rules of that filter, and the last `sampleSize` of
 * them on demand. Valid until the next call of match (the matcher reuses it): read it before.
 */
export interface FilterMatches<R, L> {
  readonly rules: readonly R[];
  readonly count: number;
  /** A new array of the last `sampleSize` matching logs, oldest first; made only when asked (a message needs them, a count does not). */
  sample(): L[];
}

export interface RuleMatcher<R> {
  /** Per filter that matched at least one of `logs` (in no particular order): its rules, the count and the last `sampleSize` matching logs. */
  match<L extends MatchableLog>(logs: readonly L[]): FilterMatches<R, L>[];
}

/** A filter's matches of the last call: the slots of its ring of logs written from the first on in every call. */
class FilterView<R> implements FilterMatches<R, MatchableLog> {
  count = 0;
  readonly rules: readonly R[];
  readonly ring: MatchableLog[];
  readonly sampleSize: number;

  constructor(rules: readonly R[], ring: MatchableLog[], sampleSize: number) {
    this.rules = rules;
    this.ring = ring;
    this.sampleSize = sampleSize;
  }

  sample(): MatchableLog[] {
    const n = this.count;
    const ring = this.ring;
    // Oldest first: once the ring wrapped, its next slot holds the oldest.
    const next = n % this.sampleSize;
    return n <= this.sampleSize ? ring.slice(0, n) : [...ring.slice(next), ...ring.slice(0, next)];
  }
}

interface CompiledFilter<R> {
  /** Its place in the per-call tallies. */
  readonly index: number;
  readonly level: string | undefined;
  readonly type: string | undefined;
  readonly resource: string | undefined;
  /** The search as its own expression (filters found by their fields), or null. */
  readonly search: RegExp | null;
  /** Its text's place in the search scan (filters of a search alone), or -1. */
  scanText: number;
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
      search: filter.search === undefined ? null : searchPattern([filter.search]),
      scanText: -1,
      metadata: Object.entries(filter.metadata ?? {}),
      rules: [rule],
    });
  }
  const compiledByIndex = [...distinct.values()];
  const byFields: CompiledFilter<R>[] = [];
  const bySearch: CompiledFilter<R>[] = [];
  const texts: string[] = [];
  const textIndex = new Map<string, number>();
  /** Metadata key -> value as text -> filters of metadata alone whose first entry it is. */
  const byMetadata = new Map<string, Map<string, CompiledFilter<R>[]>>();
  const everything: CompiledFilter<R>[] = [];
  for (const compiled of compiledByIndex) {
    const search = compiled.rules[0]!.filter.search;
    if (compiled.level !== undefined || compiled.type !== undefined || compiled.resource !== undefined) byFields.push(compiled);
    else if (search !== undefined) {
      let text = textIndex.get(search);
      if (text === undefined) textIndex.set(search, (text = texts.push(search) - 1));
      compiled.scanText = text;
      bySearch.push(compiled);
    } else if (compiled.metadata.length > 0) {
      const [name, value] = compiled.metadata[0]!;
      let byValue = byMetadata.get(name);
      if (byValue === undefined) byMetadata.set(name, (byValue = new Map()));
      const list = byValue.get(value);
      if (list === undefined) byValue.set(value, [compiled]);
      else list.push(compiled);
    } else everything.push(compiled);
  }
  const metadataKeys = [...byMetadata.keys()];
  const metadataValues = [...byMetadata.values()];
  const scan = texts.length === 0 ? null : createSearchScan(texts);

  /** type -> resource -> level -> the byFields filters whose level, type and resource hold. */
  const triples = new Map<string, Map<string, Map<string, readonly CompiledFilter<R>[]>>>();
  let remembered = 0;
  const fieldsHold = (type: string, resource: string, level: string): readonly CompiledFilter<R>[] => {
    const lowerType = type.toLowerCase();
    const lowerResource = resource.toLowerCase();
    const lowerLevel = level.toLowerCase();
    return byFields.filter(
      (f) => (f.type === undefined || f.type === lowerType) && (f.resource === undefined || f.resource === lowerResource) && (f.level === undefined || f.level === lowerLevel),
    );
  };
  const candidatesOf = (type: string, resource: string, level: string): readonly CompiledFilter<R>[] => {
    let byResource = triples.get(type);
    if (byResource === undefined) {
      if (remembered >= MAX_REMEMBERED) {
        triples.clear();
        remembered = 0;
      }
      triples.set(type, (byResource = new Map()));
    }
    let byLevel = byResource.get(resource);
    if (byLevel === undefined) byResource.set(resource, (byLevel = new Map()));
    let found = byLevel.get(level);
    if (found === undefined) {
      byLevel.set(level, (found = fieldsHold(type, resource, level)));
      remembered += 1;
    }
    return found;
  };

  // Tallies kept between calls (a call starts them at zero for the filters the last one touched): no
  // allocation per call but the answer itself.
  const counts = new Int32Array(compiledByIndex.length);
  const rings: MatchableLog[][] = compiledByIndex.map(() => []);
  const views = compiledByIndex.map((compiled, index) => new FilterView(compiled.rules, rings[index]!, sampleSize));
  const touched: number[] = [];

  return {
    match(logs) {
      type Log = (typeof logs)[number];
      const count = (compiled: CompiledFilter<R>, log: Log) => {
        const seen = counts[compiled.index]!;
        if (seen === 0) touched.push(compiled.index);
        counts[compiled.index] = seen + 1;
        rings[compiled.index]![seen % sampleSize] = log;
      };
      for (let i = 0; i < logs.length; i++) {
        const log = logs[i]!;
        if (byFields.length > 0) {
          const candidates = candidatesOf(log.type, log.resource, log.level);
          for (let c = 0; c < candidates.length; c++) {
            const compiled = candidates[c]!;
            if (compiled.search !== null && !compiled.search.test(log.message)) continue;
            if (compiled.metadata.length > 0 && !holdsMetadata(log.metadata, compiled.metadata, 0)) continue;
            count(compiled, log);
          }
        }
        if (scan !== null && scan.scan(log.message)) {
          for (let c = 0; c < bySearch.length; c++) {
            const compiled = bySearch[c]!;
            if (!scan.holds(compiled.scanText)) continue;
            if (compiled.metadata.length > 0 && !holdsMetadata(log.metadata, compiled.metadata, 0)) continue;
            count(compiled, log);
          }
        }
        if (metadataKeys.length > 0 && log.metadata !== null) {
          for (let k = 0; k < metadataKeys.length; k++) {
            const actual = log.metadata[metadataKeys[k]!];
            if (actual === undefined) continue;
            const candidates = metadataValues[k]!.get(metadataText(actual));
            if (candidates === undefined) continue;
            for (let c = 0; c < candidates.length; c++) if (holdsMetadata(log.metadata, candidates[c]!.metadata, 1)) count(candidates[c]!, log);
          }
        }
        for (let c = 0; c < everything.length; c++) count(everything[c]!, log);
      }
      const found: FilterMatches<R, Log>[] = [];
      for (const index of touched) {
        const view = views[index]!;
        view.count = counts[index]!;
        // The ring holds only logs of this call (of type Log) up to `count`: one beyond it is never read.
        found.push(view as FilterMatches<R, Log>);
        counts[index] = 0;
      }
      touched.length = 0;
      return found;
    },
  };
}
