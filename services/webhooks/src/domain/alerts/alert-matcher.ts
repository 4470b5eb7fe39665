/**
 * A server's alert rules as one matcher, built once per set of rules (the evaluator keeps it between bus
 * reads): rules with the same filter share one compiled test, and filters that name a type, a resource or
 * a level are found through a map of that value, so a log is tested only against the filters that can
 * match it, plus those that name none of the three (search or metadata only). A log is lower-cased once,
 * and only in the fields some filter compares.
 */
import type { AlertFilter } from '@skald/contracts';
import { compileAlertFilter } from './alert-filter.ts';
import type { PreparedLog } from './alert-filter.ts';

type MatchableLog = Pick<PreparedLog, 'level' | 'type' | 'resource' | 'message' | 'metadata'>;

/** The logs of one call that a filter matched: how many, and the last `sampleSize` of them. */
export interface FilterMatches<L> {
  count: number;
  readonly sample: L[];
}

interface CompiledFilter<R> {
  /** Its place in the per-call tallies. */
  readonly index: number;
  readonly test: (log: PreparedLog) => boolean;
  readonly rules: R[];
}

export interface RuleMatcher<R> {
  /** Per rule that matched at least one of `logs`: the count and the last `sampleSize` matching logs. */
  match<L extends MatchableLog>(logs: readonly L[]): Map<R, FilterMatches<L>>;
}

const EMPTY: readonly never[] = [];

export function createRuleMatcher<R extends { readonly filter: AlertFilter }>(rules: readonly R[], sampleSize: number): RuleMatcher<R> {
  const distinct = new Map<string, CompiledFilter<R>>();
  for (const rule of rules) {
    const key = JSON.stringify(rule.filter);
    const known = distinct.get(key);
    if (known) known.rules.push(rule);
    else distinct.set(key, { index: distinct.size, test: compileAlertFilter(rule.filter), rules: [rule] });
  }
  const byType = new Map<string, CompiledFilter<R>[]>();
  const byResource = new Map<string, CompiledFilter<R>[]>();
  const byLevel = new Map<string, CompiledFilter<R>[]>();
  const unindexed: CompiledFilter<R>[] = [];
  let needsMessage = false;
  let needsType = false;
  let needsResource = false;
  const add = (index: Map<string, CompiledFilter<R>[]>, value: string, filter: CompiledFilter<R>) => {
    const list = index.get(value);
    if (list) list.push(filter);
    else index.set(value, [filter]);
  };
  for (const [key, compiled] of distinct) {
    const filter = JSON.parse(key) as AlertFilter;
    if (filter.search !== undefined) needsMessage = true;
    if (filter.type !== undefined) needsType = true;
    if (filter.resource !== undefined) needsResource = true;
    // One index per filter, the field most likely to set a log apart first; the compiled test checks the rest.
    if (filter.type !== undefined) add(byType, filter.type.toLowerCase(), compiled);
    else if (filter.resource !== undefined) add(byResource, filter.resource.toLowerCase(), compiled);
    else if (filter.level !== undefined) add(byLevel, filter.level.toLowerCase(), compiled);
    else unindexed.push(compiled);
  }

  return {
    match(logs) {
      // Per filter: how many logs matched, and a ring of the last sampleSize of them (no shifting per match).
      const counts = new Array<number>(distinct.size).fill(0);
      const rings: (typeof logs)[number][][] = [];
      const consider = (candidates: readonly CompiledFilter<R>[], prepared: PreparedLog, log: (typeof logs)[number]) => {
        for (const compiled of candidates) {
          if (!compiled.test(prepared)) continue;
          const seen = counts[compiled.index]!;
          counts[compiled.index] = seen + 1;
          (rings[compiled.index] ??= [])[seen % sampleSize] = log;
        }
      };
      for (const log of logs) {
        const prepared: PreparedLog = {
          // Levels are one of five lower-case words (the accepted-logs schema).
          level: log.level,
          type: needsType ? log.type.toLowerCase() : log.type,
          resource: needsResource ? log.resource.toLowerCase() : log.resource,
          message: needsMessage ? log.message.toLowerCase() : log.message,
          metadata: log.metadata,
        };
        if (byType.size > 0) consider(byType.get(prepared.type) ?? EMPTY, prepared, log);
        if (byResource.size > 0) consider(byResource.get(prepared.resource) ?? EMPTY, prepared, log);
        if (byLevel.size > 0) consider(byLevel.get(prepared.level) ?? EMPTY, prepared, log);
        if (unindexed.length > 0) consider(unindexed, prepared, log);
      }
      const perRule = new Map<R, FilterMatches<(typeof logs)[number]>>();
      for (const compiled of distinct.values()) {
        const count = counts[compiled.index]!;
        if (count === 0) continue;
        const ring = rings[compiled.index]!;
        // Oldest first: once the ring wrapped, its next slot holds the oldest.
        const next = count % sampleSize;
        const sample = count <= sampleSize ? ring : [...ring.slice(next), ...ring.slice(0, next)];
        const matches = { count, sample };
        for (const rule of compiled.rules) perRule.set(rule, matches);
      }
      return perRule;
    },
  };
}
