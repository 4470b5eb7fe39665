/** View logic of the log histogram, kept out of the chart so it is tested on its own. */
import { COLOR_LEVELS, type LevelColor, type LevelColors, type LogHistogram, type LogHistogramBucket } from '@skald/contracts/api';
import { colorForLevel } from './logsApi.ts';

/** The levels present, the five known ones first in their usual order (the stack's bottom-up order). */
export function histogramLevels(histogram: LogHistogram): string[] {
  const present = new Set(histogram.buckets.flatMap((b) => Object.keys(b.levels)));
  const known: string[] = COLOR_LEVELS.filter((l) => present.has(l));
  const others = [...present].filter((l) => !known.includes(l)).sort();
  return [...known, ...others];
}

/** Steps of a day or more label their bars by date; shorter ones by time, and by date at local midnight. */
function isDayStep(step: LogHistogram['step']): boolean {
  return step !== null && step.endsWith('d');
}

const dateFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** The axis label of a bar, in the browser's zone (the zone the server aligned the bars in). */
export function barLabel(bucket: LogHistogramBucket, step: LogHistogram['step']): string {
  const from = new Date(bucket.from);
  if (isDayStep(step)) return dateFormat.format(from);
  const time = timeFormat.format(from);
  return time === '00:00' ? dateFormat.format(from) : time;
}

/** "18 Aug, 10:00 – 11:00", or "18 Aug – 19 Aug" for day bars; `to` is exclusive, so day bars show their last day. */
export function rangeLabel(fromIso: string, toIso: string, step: LogHistogram['step'] = null): string {
  const from = new Date(fromIso);
  const to = new Date(toIso);
  if (isDayStep(step)) {
    const last = new Date(to.getTime() - 1);
    const first = dateFormat.format(from);
    const end = dateFormat.format(last);
    return first === end ? first : `${first} – ${end}`;
  }
  const sameDay = dateFormat.format(from) === dateFormat.format(to);
  return `${dateTimeFormat.format(from)} – ${sameDay ? timeFormat.format(to) : dateTimeFormat.format(to)}`;
}

/** "18 Aug, 10:00": one instant. */
export function instantLabel(iso: string): string {
  return dateTimeFormat.format(new Date(iso));
}

const STEP_WORDS: Record<NonNullable<LogHistogram['step']>, string> = {
  '1m': '1-minute',
  '5m': '5-minute',
  '15m': '15-minute',
  '30m': '30-minute',
  '1h': '1-hour',
  '3h': '3-hour',
  '6h': '6-hour',
  '12h': '12-hour',
  '1d': '1-day',
  '2d': '2-day',
  '7d': '1-week',
  '14d': '2-week',
  '30d': '30-day',
};

export function stepWords(step: LogHistogram['step']): string {
  return step === null ? '' : STEP_WORDS[step];
}

const count = (n: number) => n.toLocaleString('en-US');

/** The chart's accessible name: what a sighted user reads off the bars. */
export function histogramSummary(histogram: LogHistogram): string {
  const { buckets } = histogram;
  if (buckets.length === 0) return 'No matching logs to chart.';
  const busiest = buckets.reduce((best, b) => (b.total > best.total ? b : best), buckets[0]!);
  const levels = histogramLevels(histogram)
    .map((level) => `${level} ${count(buckets.reduce((n, b) => n + (b.levels[level] ?? 0), 0))}`)
    .join(', ');
  return (
    `Histogram of ${count(histogram.total)} matching ${histogram.total === 1 ? 'log' : 'logs'}${histogram.capped ? ' (the newest counted)' : ''} in ${buckets.length} ${stepWords(histogram.step)} bars ` +
    `from ${rangeLabel(buckets[0]!.from, buckets[buckets.length - 1]!.to, histogram.step)}; by level: ${levels}. ` +
    `Busiest bar: ${rangeLabel(busiest.from, busiest.to, histogram.step)} with ${count(busiest.total)}. Select a bar to narrow the list to its time range.`
  );
}

/** A neutral bar colour for a level before the server's colours load. */
const LOADING_COLOR: LevelColor = { bg_color: '#9ca3af', text_color: '#4b5563' };

/** The bar colours of a level: the server's level colours, as the log cards draw them (pale fill, strong edge). */
export function levelBarColor(level: string, colors: LevelColors | undefined): LevelColor {
  return colorForLevel(level, colors) ?? LOADING_COLOR;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** The tooltip of a bar (echarts renders it as HTML: every text is escaped). */
export function tooltipHtml(bucket: LogHistogramBucket, step: LogHistogram['step'], levels: readonly string[]): string {
  const rows = levels
    .filter((level) => (bucket.levels[level] ?? 0) > 0)
    .map((level) => `${escapeHtml(level)}: <b>${count(bucket.levels[level] ?? 0)}</b>`);
  return [`<b>${escapeHtml(rangeLabel(bucket.from, bucket.to, step))}</b>`, ...rows, `Total: <b>${count(bucket.total)}</b>`].join('<br/>');
}
