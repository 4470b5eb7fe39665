/**
 * A server's alert rules as one matcher, built once per set of rules (the evaluator keeps it between bus
 * reads), so that a log is tested only against the filters that can match it:
 *  - rules with the same filter share one compiled test;
 *  - filters naming a type, else a resource, else a level are found through a map of that value;
 *  - filters of a search alone (no type, resource or level) are tested only when one regular expression of
 *    all their texts finds one of them in the message;
 *  - filters of metadata alone are found through a map of their first key and value;
 *  - filters naming nothing (all logs) are tested with every log.
 * Per log nothing is allocated: one view of the log is reused, with type and resource lower-cased only when
 * some filter compares them, through a memo of the few values a server sends that also holds the filters
 * found through each (one lookup a field, no lower-cased copy to allocate and hash per log).
 */
import type { AlertFilter } from '@skald/contracts';
import { compileAlertFilter, metadataText, searchPattern } from './alert-filter.ts';
import type { PreparedLog } from './alert-filter.ts';

type MatchableLog = Pick<PreparedLog, 'level' | 'type' | 'resource' | 'message' | 'metadata'>;

/** The logs of one call that a filter matched: how many, the last `sampleSize` of them, and the rules of that filter. */
export interface FilterMatches<R, L> {
  readonly rules: readonly R[];
  readonly count: number;
  readonly sample: readonly L[];
}

interface CompiledFilter<R> {
  /** Its place in the per-call tallies. */
  readonly index: number;
  readonly test: (log: PreparedLog) => boolean;
  /** The filter names one field and nothing else, so being found through that field's map is the match. */
  exact: boolean;
  readonly rules: R[];
}

export interface RuleMatcher<R> {
  /** Per filter that matched at least one of `logs` (in no particular order): its rules, the count and the last `sampleSize` matching logs. */
  match<L extends MatchableLog>(logs: readonly L[]): FilterMatches<R, L>[];
}

/** The one view of the log being matched, rewritten per log. */
interface LogView {
  level: string;
  type: string;
  resource: string;
  message: string;
  metadata: PreparedLog['metadata'];
}

type Index<R> = Map<string, CompiledFilter<R>[]>;

function addTo<R>(index: Index<R>, value: string, filter: CompiledFilter<R>): void {
  const list = index.get(value);
  if (list) list.push(filter);
  else index.set(value, [filter]);
}

/** Distinct types or resources remembered at most (a server sends a few dozen). */
const MAX_REMEMBERED = 4_096;

/** A type or resource as a log sent it: lower-cased, and the filters found through it. */
interface FieldValue<R> {
  readonly lower: string;
  readonly candidates: readonly CompiledFilter<R>[] | undefined;
}

/** value -> its FieldValue in `index`, remembered: the same few values come in every batch. */
function fieldOf<R>(index: Index<R>): (value: string) => FieldValue<R> {
  const remembered = new Map<string, FieldValue<R>>();
  return (value) => {
    let known = remembered.get(value);
    if (known === undefined) {
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      const lower = value.toLowerCase();
      remembered.set(value, (known = { lower, candidates: index.get(lower) }));
    }
    return known;
  };
}

export function createRuleMatcher<R extends { readonly filter: AlertFilter }>(rules: readonly R[], sampleSize: number): RuleMatcher<R> {
  const distinct = new Map<string, CompiledFilter<R>>();
  for (const rule of rules) {
    const key = JSON.stringify(rule.filter);
    const known = distinct.get(key);
    if (known) known.rules.push(rule);
    else distinct.set(key, { index: distinct.size, test: compileAlertFilter(rule.filter), exact: false, rules: [rule] });
  }
  const byType: Index<R> = new Map();
  const byResource: Index<R> = new Map();
  const byLevel: Index<R> = new Map();
  /** Metadata key -> value as text -> filters of metadata alone whose first entry it is. */
  const byMetadata = new Map<string, Index<R>>();
  /** byMetadata as arrays, walked per log. */
  const metadataKeys: string[] = [];
  const metadataValues: Index<R>[] = [];
  const bySearch: CompiledFilter<R>[] = [];
  const searches: string[] = [];
  const everything: CompiledFilter<R>[] = [];
  let needsType = false;
  let needsResource = false;
  for (const [key, compiled] of distinct) {
    const filter = JSON.parse(key) as AlertFilter;
    if (filter.type !== undefined) needsType = true;
    if (filter.resource !== undefined) needsResource = true;
    const metadata = Object.entries(filter.metadata ?? {});
    const named = [filter.type, filter.resource, filter.level, filter.search].filter((v) => v !== undefined).length + metadata.length;
    // A search alone is not exact: the regular expression of every search only says one of them is there.
    compiled.exact = named === 1 && filter.search === undefined;
    const firstMetadata = metadata[0];
    // One index per filter, the field most likely to set a log apart first; the compiled test checks the rest.
    if (filter.type !== undefined) addTo(byType, filter.type.toLowerCase(), compiled);
    else if (filter.resource !== undefined) addTo(byResource, filter.resource.toLowerCase(), compiled);
    else if (filter.level !== undefined) addTo(byLevel, filter.level.toLowerCase(), compiled);
    else if (filter.search !== undefined) {
      bySearch.push(compiled);
      searches.push(filter.search);
    } else if (firstMetadata !== undefined) {
      const [name, value] = firstMetadata;
      let byValue = byMetadata.get(name);
      if (byValue === undefined) byMetadata.set(name, (byValue = new Map()));
      addTo(byValue, value, compiled);
    } else everything.push(compiled);
  }
  for (const [name, byValue] of byMetadata) {
    metadataKeys.push(name);
    metadataValues.push(byValue);
  }
  const anySearch = bySearch.length === 0 ? null : searchPattern(searches);
  const view: LogView = { level: '', type: '', resource: '', message: '', metadata: null };
  const typeOf = fieldOf(byType);
  const resourceOf = fieldOf(byResource);

  // Tallies kept between calls (a call starts them at zero for the filters the last one touched): no
  // allocation per call but the answer itself.
  const compiledByIndex = [...distinct.values()];
  const counts = new Int32Array(distinct.size);
  const rings: MatchableLog[][] = compiledByIndex.map(() => []);
  const touched: number[] = [];

  return {
    match(logs) {
      type Log = (typeof logs)[number];
      const consider = (candidates: readonly CompiledFilter<R>[] | undefined, log: Log) => {
        if (candidates === undefined) return;
        for (let i = 0; i < candidates.length; i++) {
          const compiled = candidates[i]!;
          if (!compiled.exact && !compiled.test(view)) continue;
          const seen = counts[compiled.index]!;
          if (seen === 0) touched.push(compiled.index);
          counts[compiled.index] = seen + 1;
          rings[compiled.index]![seen % sampleSize] = log;
        }
      };
      for (let i = 0; i < logs.length; i++) {
        const log = logs[i]!;
        // Levels are one of five lower-case words (the accepted-logs schema).
        view.level = log.level;
        const type = needsType ? typeOf(log.type) : null;
        const resource = needsResource ? resourceOf(log.resource) : null;
        view.type = type === null ? log.type : type.lower;
        view.resource = resource === null ? log.resource : resource.lower;
        view.message = log.message;
        view.metadata = log.metadata;
        if (type !== null) consider(type.candidates, log);
        if (resource !== null) consider(resource.candidates, log);
        if (byLevel.size > 0) consider(byLevel.get(view.level), log);
        if (anySearch !== null && anySearch.test(log.message)) consider(bySearch, log);
        if (metadataKeys.length > 0 && log.metadata !== null) {
          for (let k = 0; k < metadataKeys.length; k++) {
            const actual = log.metadata[metadataKeys[k]!];
            if (actual !== undefined) consider(metadataValues[k]!.get(metadataText(actual)), log);
          }
        }
        if (everything.length > 0) consider(everything, log);
      }
      const found: FilterMatches<R, Log>[] = [];
      for (const index of touched) {
        const count = counts[index]!;
        const ring = rings[index]! as Log[];
        // Oldest first: once the ring wrapped, its next slot holds the oldest.
        const next = count % sampleSize;
        const sample = count <= sampleSize ? ring.slice(0, count) : [...ring.slice(next), ...ring.slice(0, next)];
        found.push({ rules: compiledByIndex[index]!.rules, count, sample });
        // The ring's slots are written from the first on in every call: one beyond `count` is never read.
        counts[index] = 0;
      }
      touched.length = 0;
      return found;
    },
  };
}
