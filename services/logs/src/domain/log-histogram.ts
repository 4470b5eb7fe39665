/**
 * The histogram over a list's matches: which buckets, in the user's time zone, and the answer.
 *
 * Steps as Grafana and Kibana pick them: the smallest "round" step that keeps the range to at most
 * MAX_BARS bars (so 30-60 for a range that fills its step), from 1 minute to 30 days. Edges sit on the
 * zone's wall clock (a 1 h bar starts at a full local hour, a 1 d bar at local midnight, 7 d on Mondays),
 * so a daylight-saving day has 23 or 25 hours in its day bar and a clock change shortens or lengthens the
 * bar it falls in; a wall-clock time a clock change skips is no edge.
 */
import type { LogHistogram as StoreHistogram, LogMatchSpan } from '@skald/ports';
import type { LogHistogram, LogHistogramStep } from '@skald/contracts';
import { DAY_MS } from './days.ts';
import { instantOfWallClock, wallClockIn } from './local-days.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The step ladder, smallest first. */
export const HISTOGRAM_STEPS: readonly { readonly name: LogHistogramStep; readonly ms: number }[] = [
  { name: '1m', ms: MINUTE },
  { name: '5m', ms: 5 * MINUTE },
  { name: '15m', ms: 15 * MINUTE },
  { name: '30m', ms: 30 * MINUTE },
  { name: '1h', ms: HOUR },
  { name: '3h', ms: 3 * HOUR },
  { name: '6h', ms: 6 * HOUR },
  { name: '12h', ms: 12 * HOUR },
  { name: '1d', ms: DAY_MS },
  { name: '2d', ms: 2 * DAY_MS },
  { name: '7d', ms: 7 * DAY_MS },
  { name: '14d', ms: 14 * DAY_MS },
  { name: '30d', ms: 30 * DAY_MS },
];

/** At most this many bars (the range divided by the step, rounded up); at least half as many when the range fills it. */
export const MAX_BARS = 60;

/** 1970-01-05 was a Monday: week steps count from there, so a 7 d bar starts on a Monday. */
const FIRST_MONDAY_MS = 4 * DAY_MS;

export function chooseStep(rangeMs: number): { readonly name: LogHistogramStep; readonly ms: number } {
  return HISTOGRAM_STEPS.find((s) => Math.ceil(Math.max(rangeMs, 1) / s.ms) <= MAX_BARS) ?? HISTOGRAM_STEPS[HISTOGRAM_STEPS.length - 1]!;
}

/** Floors (or ceils) a wall-clock time to the step's grid: minutes and hours within the day, days from the epoch (weeks from a Monday). */
function alignWall(wall: number, stepMs: number, up: boolean): number {
  const origin = stepMs === 7 * DAY_MS || stepMs === 14 * DAY_MS ? FIRST_MONDAY_MS : 0;
  const grid = stepMs < DAY_MS ? wall - Math.floor(wall / DAY_MS) * DAY_MS : wall - origin;
  const base = wall - grid;
  const floored = base + Math.floor(grid / stepMs) * stepMs;
  return up && floored < wall ? floored + stepMs : floored;
}

export interface HistogramRange {
  /** The list query's bounds (inclusive epoch ms), from dateFrom/dateTo/timeFrom/timeTo. */
  readonly from?: number;
  readonly to?: number;
  readonly timeZone: string;
  readonly now: number;
}

export interface BucketPlan {
  readonly step: { readonly name: LogHistogramStep; readonly ms: number };
  readonly edges: number[];
}

/**
 * The bars for matches spanning `span`: from the query's start (or the oldest match) to its end (or the newest
 * match; never far past now, so "today" does not draw the hours to come). When the store stopped at its cap,
 * the first edge is the first grid instant at or after span.first, so every bar drawn is counted exactly.
 */
export function planBuckets(span: LogMatchSpan, range: HistogramRange): BucketPlan {
  let start = range.from ?? span.first;
  if (span.capped) start = Math.max(start, span.first);
  const end = Math.max(start, Math.min(range.to ?? span.last, Math.max(span.last, range.now)));
  const step = chooseStep(end - start + 1);
  const wallStart = wallClockIn(start, range.timeZone) ?? start;
  const startMs = start - (start % 1000);
  const edges: number[] = [];
  // Capped: start on the grid at or after the first counted instant; otherwise at or before the start.
  let wall = alignWall(wallStart, step.ms, span.capped);
  if (span.capped && (instantOfWallClock(wall, range.timeZone) ?? wall) > end) wall = alignWall(wallStart, step.ms, false);
  // The bars that reach `end`, plus the closing edge; a few spare rounds for clock changes and skipped times.
  for (let i = 0; i < MAX_BARS + 8 && (edges.length === 0 || edges[edges.length - 1]! <= end); i++, wall += step.ms) {
    const edge = instantOfWallClock(wall, range.timeZone);
    if (edge === null || (edges.length > 0 && edge <= edges[edges.length - 1]!)) continue;
    edges.push(edge);
  }
  if (edges.length < 2) edges.push((edges[0] ?? startMs) + step.ms);
  return { step, edges };
}

/** The answer of GET /logs/my/histogram and /photologs/my/histogram. */
export function toHistogramAnswer(histogram: StoreHistogram, plan: BucketPlan | null, timeZone: string): LogHistogram {
  if (plan === null || histogram.span === null) return { step: null, timeZone, buckets: [], total: 0, capped: false, countedFrom: null };
  const edges = histogram.edges;
  const buckets = histogram.counts.map((levels, i) => ({
    from: new Date(edges[i]!).toISOString(),
    to: new Date(edges[i + 1]!).toISOString(),
    total: Object.values(levels).reduce((a, b) => a + b, 0),
    levels: { ...levels },
  }));
  return {
    step: plan.step.name,
    timeZone,
    buckets,
    total: buckets.reduce((a, b) => a + b.total, 0),
    capped: histogram.capped,
    countedFrom: histogram.capped ? new Date(Math.max(edges[0]!, histogram.span.first)).toISOString() : null,
  };
}
