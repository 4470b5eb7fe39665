import type { DayCount, NamedCount, OtherCount } from '@skald/contracts/api';
import { Typography } from 'antd';
import { echarts, ReactEChartsCore } from '../charts/echartsCore.ts';
import type { ThemeMode } from '../../app/theme.tsx';
import { breakdownRows, hiddenNote } from './breakdownRows.ts';

const TEXT_COLOR = '#3b82f6';

/**
 * Options every chart shares. No animation: the bars grew from zero on every load and on every 10 s poll
 * that changed a figure, costing CPU on a tab left open, and screenshots caught charts half drawn.
 */
const COMMON = { backgroundColor: 'transparent', animation: false } as const;
const PHOTO_COLOR = '#f59e0b';

function series(texts: number[], photos: number[]) {
  return [
    { name: 'Text', type: 'bar', stack: 'logs', data: texts, itemStyle: { color: TEXT_COLOR } },
    { name: 'Photo', type: 'bar', stack: 'logs', data: photos, itemStyle: { color: PHOTO_COLOR } },
  ];
}

export function DailyChart({ days, mode }: { days: DayCount[]; mode: ThemeMode }) {
  const option = {
    ...COMMON,
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 40, right: 16, top: 40, bottom: 30 },
    xAxis: { type: 'category', data: days.map((d) => d.date.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: series(
      days.map((d) => d.text),
      days.map((d) => d.photo),
    ),
  };
  return <ReactEChartsCore echarts={echarts} option={option} theme={mode === 'dark' ? 'dark' : undefined} notMerge style={{ height: 280 }} aria-label="Logs per day, last 7 days" role="img" />;
}

interface SplitChartProps {
  title: string;
  /** Plural of what the rows are (types, levels, resources), for the note under the chart. */
  noun: string;
  rows: NamedCount[];
  /** The names the server summed past its top rows. */
  other: OtherCount;
  mode: ThemeMode;
}

export function SplitChart({ title, noun, rows, other, mode }: SplitChartProps) {
  const top = breakdownRows(rows, other);
  const note = hiddenNote(rows.length, other, noun);
  const option = {
    ...COMMON,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0 },
    grid: { left: 90, right: 16, top: 36, bottom: 24 },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: top.map((r) => r.name), inverse: true, axisLabel: { width: 80, overflow: 'truncate' } },
    series: series(
      top.map((r) => r.text),
      top.map((r) => r.photo),
    ),
  };
  return (
    <>
      <ReactEChartsCore echarts={echarts} option={option} theme={mode === 'dark' ? 'dark' : undefined} notMerge style={{ height: Math.max(160, 60 + top.length * 28) }} aria-label={note ? `${title}. ${note}` : title} role="img" />
      {note && <Typography.Text type="secondary">{note}</Typography.Text>}
    </>
  );
}
