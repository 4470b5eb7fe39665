/**
 * The stacked bars of the log histogram, loaded on its own after the list (echarts is not on the
 * log screens' first load). A click anywhere in a bar's column picks the bar, not only on the bar itself,
 * so short bars are as easy to hit as tall ones.
 */
import type { LevelColors, LogHistogram, LogHistogramBucket } from '@skald/contracts/api';
import { useEffect, useMemo, useRef } from 'react';
import type { ThemeMode } from '../../app/theme.tsx';
import { echarts, ReactEChartsCore } from '../charts/echartsCore.ts';
import { HISTOGRAM_HEIGHT } from './histogramLayout.ts';
import { barLabel, histogramLevels, histogramSummary, levelBarColor, tooltipHtml } from './histogramView.ts';

interface Props {
  histogram: LogHistogram;
  colors: LevelColors | undefined;
  mode: ThemeMode;
  onBar(bucket: LogHistogramBucket): void;
}

export default function HistogramChart({ histogram, colors, mode, onBar }: Props) {
  const levels = useMemo(() => histogramLevels(histogram), [histogram]);
  const { buckets, step } = histogram;
  const option = {
    backgroundColor: 'transparent',
    animation: false,
    grid: { left: 40, right: 8, top: 8, bottom: 22 },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      confine: true,
      formatter: (params: { dataIndex: number }[]) => {
        const bucket = buckets[params[0]?.dataIndex ?? -1];
        return bucket ? tooltipHtml(bucket, step, levels) : '';
      },
    },
    xAxis: { type: 'category', data: buckets.map((b) => barLabel(b, step)), axisTick: { alignWithLabel: true }, axisLabel: { hideOverlap: true, fontSize: 11 } },
    yAxis: { type: 'value', minInterval: 1, splitNumber: 2, axisLabel: { fontSize: 11 } },
    series: levels.map((level) => {
      const color = levelBarColor(level, colors);
      return {
        name: level,
        type: 'bar',
        stack: 'levels',
        barCategoryGap: '15%',
        // A short range has few bars: keep them bar-shaped rather than one block across the chart.
        barMaxWidth: 48,
        data: buckets.map((b) => b.levels[level] ?? 0),
        itemStyle: { color: color.bg_color, borderColor: color.text_color, borderWidth: 1 },
        emphasis: { disabled: true },
      };
    }),
  };
  // The click handler is bound once, when the chart is ready: it reads the latest bars and callback here.
  const latest = useRef({ buckets, onBar });
  useEffect(() => {
    latest.current = { buckets, onBar };
  }, [buckets, onBar]);
  const onChartReady = (chart: echarts.ECharts) => {
    chart.getZr().on('click', (event: { offsetX: number; offsetY: number }) => {
      const point = [event.offsetX, event.offsetY];
      if (!chart.containPixel('grid', point)) return;
      const [index] = chart.convertFromPixel('grid', point) as number[];
      const bucket = index === undefined ? undefined : latest.current.buckets[Math.round(index)];
      if (bucket) latest.current.onBar(bucket);
    });
  };
  return (
    <div className="log-histogram-chart" role="img" aria-label={histogramSummary(histogram)}>
      <ReactEChartsCore echarts={echarts} option={option} theme={mode === 'dark' ? 'dark' : undefined} notMerge style={{ height: HISTOGRAM_HEIGHT }} onChartReady={onChartReady} />
    </div>
  );
}
