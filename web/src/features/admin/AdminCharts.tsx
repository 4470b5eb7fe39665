import { echarts, ReactEChartsCore } from '../charts/echartsCore.ts';
import type { ThemeMode } from '../../app/theme.tsx';

export interface ChartSeries {
  readonly name: string;
  readonly color: string;
  readonly points: readonly { date: string; count: number }[];
}

/**
 * Bars per day for one or more series merged by date (docs/spec/part-2.txt section 2: new users and new servers share a chart;
 * a date one series lacks counts 0). No animation, as on the server dashboard.
 */
export function DayBars({ series, label, mode }: { series: readonly ChartSeries[]; label: string; mode: ThemeMode }) {
  const dates = [...new Set(series.flatMap((s) => s.points.map((p) => p.date)))].sort();
  const option = {
    backgroundColor: 'transparent',
    animation: false,
    tooltip: { trigger: 'axis' },
    legend: series.length > 1 ? { top: 0 } : undefined,
    grid: { left: 40, right: 16, top: series.length > 1 ? 40 : 16, bottom: 30 },
    xAxis: { type: 'category', data: dates.map((d) => d.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: series.map((s) => {
      const byDate = new Map(s.points.map((p) => [p.date, p.count]));
      return { name: s.name, type: 'bar', data: dates.map((d) => byDate.get(d) ?? 0), itemStyle: { color: s.color } };
    }),
  };
  return <ReactEChartsCore echarts={echarts} option={option} theme={mode === 'dark' ? 'dark' : undefined} notMerge style={{ height: 240 }} aria-label={label} role="img" />;
}
