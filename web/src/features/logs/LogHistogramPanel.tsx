/**
 * Above the log and photo-log lists: how the matching logs spread over time, by level, as log
 * tools show it (Grafana Explore, Kibana). A bar click narrows the list to the bar's time range; the range
 * shows as a tag that clears it. Nothing is drawn while it loads or when nothing matches.
 */
import { CloseOutlined } from '@ant-design/icons';
import type { LevelColors, LogHistogramBucket } from '@skald/contracts/api';
import { Button } from 'antd';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useThemeMode } from '../../app/theme.tsx';
import { HISTOGRAM_HEIGHT } from './histogramLayout.ts';
import { instantLabel, rangeLabel, stepWords } from './histogramView.ts';
import type { LogFilters } from './logFilters.ts';
import { HISTOGRAM_POLL_MS, useLogHistogramQuery } from './logsApi.ts';

const HistogramChart = lazy(() => import('./HistogramChart.tsx'));

interface Props {
  serverId: string;
  /** The list's settled filters: the histogram counts exactly what the list lists. */
  filters: LogFilters;
  logType: 'text' | 'photo';
  colors: LevelColors | undefined;
  /** Narrows (a bar's from and to) or clears (empty strings) the time range. */
  onTimeRange(timeFrom: string, timeTo: string): void;
  /** The dense table's page: the chart folds into its caption line until asked for, leaving the lines in view. */
  folded?: boolean;
}

export function LogHistogramPanel({ serverId, filters, logType, colors, onTimeRange, folded = false }: Props) {
  const { mode } = useThemeMode();
  const [chartShown, setChartShown] = useState(false);
  const showChart = !folded || chartShown;
  const { data } = useLogHistogramQuery({ serverId, filters, logType }, { pollingInterval: HISTOGRAM_POLL_MS, skipPollingIfUnfocused: true });
  const onBar = useCallback((bucket: LogHistogramBucket) => onTimeRange(bucket.from, bucket.to), [onTimeRange]);
  const narrowed = filters.timeFrom !== '' || filters.timeTo !== '';
  const chart = data !== undefined && data.total > 0 ? data : undefined;
  if (!chart && !narrowed) return null;
  return (
    <section className="log-histogram" data-testid="log-histogram" aria-label="Matching logs over time">
      <div className="log-histogram-head">
        {chart && (
          <span className="log-histogram-caption">
            {chart.total.toLocaleString('en-US')} {chart.capped ? 'newest ' : ''}matching {logType === 'photo' ? 'photo ' : ''}
            {chart.total === 1 ? 'log' : 'logs'}, {stepWords(chart.step)} bars
            {chart.capped && chart.countedFrom ? ` (counted since ${instantLabel(chart.countedFrom)})` : ''}
          </span>
        )}
        {chart && folded && (
          <Button size="small" type="link" className="log-histogram-fold" aria-expanded={chartShown} onClick={() => setChartShown((shown) => !shown)}>
            {chartShown ? 'Hide chart' : 'Show chart'}
          </Button>
        )}
        {narrowed && (
          <Button size="small" className="log-histogram-range" icon={<CloseOutlined />} iconPlacement="end" onClick={() => onTimeRange('', '')} aria-label={`Clear the time range ${rangeLabel(filters.timeFrom, filters.timeTo)}`}>
            {rangeLabel(filters.timeFrom, filters.timeTo)}
          </Button>
        )}
      </div>
      {chart && showChart && (
        <Suspense fallback={<div style={{ height: HISTOGRAM_HEIGHT }} />}>
          <HistogramChart histogram={chart} colors={colors} mode={mode} onBar={onBar} />
        </Suspense>
      )}
    </section>
  );
}
