/** The histogram above /logs and /photologs: bars from the server's answer, a bar click narrows the list. */
import type { LogHistogram } from '@skald/contracts/api';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { histogramLevels, histogramSummary, tooltipHtml } from '../src/features/logs/histogramView.ts';
import { apiLog, LEVELS, levelColors, photoLogPage } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

interface DrawnChart {
  option: { series: { name: string; data: number[]; itemStyle: { color: string; borderColor: string } }[]; xAxis: { data: string[] }; animation: boolean };
  onChartReady?: (chart: unknown) => void;
}

// echarts draws on a canvas jsdom lacks: capture what the chart is given, and hand it a stand-in chart
// whose clicks land on the column the test names.
const drawn: DrawnChart[] = [];
let clickHandler: ((event: { offsetX: number; offsetY: number }) => void) | undefined;
let clickedColumn = 0;
vi.mock('echarts-for-react/esm/core', () => ({
  default: (props: DrawnChart) => {
    drawn.push(props);
    props.onChartReady?.({
      getZr: () => ({ on: (_event: string, handler: typeof clickHandler) => (clickHandler = handler) }),
      containPixel: () => true,
      convertFromPixel: () => [clickedColumn, 0],
    });
    return <div data-testid="echart" />;
  },
}));
const { default: LogsPage } = await import('../src/features/logs/LogsPage.tsx');
const { default: PhotoLogsPage } = await import('../src/features/photologs/PhotoLogsPage.tsx');

const ANSWER: LogHistogram = {
  step: '1h',
  timeZone: 'UTC',
  total: 9,
  capped: false,
  countedFrom: null,
  buckets: [
    { from: '2026-01-02T09:00:00.000Z', to: '2026-01-02T10:00:00.000Z', total: 3, levels: { info: 2, error: 1 } },
    { from: '2026-01-02T10:00:00.000Z', to: '2026-01-02T11:00:00.000Z', total: 0, levels: {} },
    { from: '2026-01-02T11:00:00.000Z', to: '2026-01-02T12:00:00.000Z', total: 6, levels: { warn: 4, info: 1, custom: 1 } },
  ],
};
const EMPTY: LogHistogram = { step: null, timeZone: 'UTC', total: 0, capped: false, countedFrom: null, buckets: [] };

const settings = {
  'GET /settings/colors': () => json(levelColors({ warn: { bg_color: '#fee2b3', text_color: '#b45309' } })),
  'GET /settings/levels': () => json(LEVELS),
};

describe('histogram view', () => {
  it('stacks the known levels first in their usual order, then the others', () => {
    expect(histogramLevels(ANSWER)).toEqual(['info', 'warn', 'error', 'custom']);
  });

  it('summarises the chart for screen readers and escapes what the tooltip shows', () => {
    const summary = histogramSummary(ANSWER);
    expect(summary).toMatch(/^Histogram of 9 matching logs in 3 1-hour bars from /);
    expect(summary).toContain('by level: info 3, warn 4, error 1, custom 1');
    expect(summary).toMatch(/Busiest bar: .* with 6\./);
    const html = tooltipHtml({ ...ANSWER.buckets[0]!, levels: { '<b>x</b>': 1 } }, '1h', ['<b>x</b>']);
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;: <b>1</b>');
    expect(html).toContain('Total: <b>3</b>');
  });
});

describe('histogram on /logs', () => {
  it('draws the answer as bars stacked by level in the server’s level colours, named for screen readers', async () => {
    drawn.length = 0;
    const seen = mockApi({
      ...settings,
      'GET /logs/my': () => json([apiLog()], { headers: { 'X-Total-Count': '9' } }),
      'GET /logs/my/histogram': () => json(ANSWER),
    });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    const chart = await screen.findByRole('img', { name: /Histogram of 9 matching logs/ });
    expect(chart).toBeTruthy();
    await waitFor(() => expect(drawn.at(-1)?.option.series.map((s) => s.name)).toEqual(['info', 'warn', 'error', 'custom']));
    const option = drawn.at(-1)!.option;
    expect(option.animation).toBe(false);
    expect(option.xAxis.data).toHaveLength(3);
    expect(option.series.find((s) => s.name === 'warn')).toMatchObject({ data: [0, 0, 4], itemStyle: { color: '#fee2b3', borderColor: '#b45309' } });
    expect(option.series.find((s) => s.name === 'info')!.data).toEqual([2, 0, 1]);
    expect(screen.getByText(/9 matching logs, 1-hour bars/)).toBeTruthy();
    // The histogram asks with the list's filters and the browser's zone, never with paging.
    const asked = new URL(seen.find((r) => r.url.includes('/logs/my/histogram'))!.url).searchParams;
    expect(asked.get('serverId')).toBe('s1');
    expect(asked.get('timeZone')).toBeTruthy();
    expect(asked.has('page')).toBe(false);
  });

  it('a click on a bar narrows the list and the histogram to its time range; the range tag clears it', async () => {
    const seen = mockApi({
      ...settings,
      'GET /logs/my': () => json([apiLog()], { headers: { 'X-Total-Count': '9' } }),
      'GET /logs/my/histogram': () => json(ANSWER),
    });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    await screen.findByRole('img', { name: /Histogram of 9/ });
    clickedColumn = 2;
    act(() => clickHandler?.({ offsetX: 100, offsetY: 50 }));
    const narrowed = (path: string) =>
      seen.some((r) => {
        const url = new URL(r.url);
        return url.pathname.endsWith(path) && url.searchParams.get('timeFrom') === '2026-01-02T11:00:00.000Z' && url.searchParams.get('timeTo') === '2026-01-02T12:00:00.000Z';
      });
    await waitFor(() => expect(narrowed('/logs/my') && narrowed('/logs/my/histogram')).toBe(true));
    const clear = await screen.findByRole('button', { name: /Clear the time range/ });
    fireEvent.click(clear);
    // Back to the unnarrowed query (answered from the cache the first load filled, so no new request needed).
    await waitFor(() => expect(screen.queryByRole('button', { name: /Clear the time range/ })).toBeNull());
    expect(screen.getByText(/9 matching logs, 1-hour bars/)).toBeTruthy();
  });

  it('Live follows what arrives now: the bar’s time range stays off the tail, and the histogram hides', async () => {
    const seen = mockApi({
      ...settings,
      'GET /logs/my': () => json([apiLog()], { headers: { 'X-Total-Count': '9' } }),
      'GET /logs/my/histogram': () => json(ANSWER),
      'GET /logs/tail': () => new Response(new ReadableStream<Uint8Array>({ start: () => undefined }), { headers: { 'Content-Type': 'text/event-stream' } }),
    });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    await screen.findByRole('img', { name: /Histogram of 9/ });
    clickedColumn = 0;
    act(() => clickHandler?.({ offsetX: 10, offsetY: 10 }));
    await screen.findByRole('button', { name: /Clear the time range/ });
    fireEvent.click(screen.getByRole('switch', { name: 'Live' }));
    await waitFor(() => expect(seen.some((r) => new URL(r.url).pathname === '/api/logs/tail')).toBe(true));
    const tail = new URL(seen.find((r) => new URL(r.url).pathname === '/api/logs/tail')!.url).searchParams;
    expect(tail.has('timeFrom') || tail.has('timeTo')).toBe(false);
    expect(screen.queryByTestId('log-histogram')).toBeNull();
  });

  it('draws nothing when no log matches', async () => {
    mockApi({
      ...settings,
      'GET /logs/my': () => json([], { headers: { 'X-Total-Count': '0' } }),
      'GET /logs/my/histogram': () => json(EMPTY),
    });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    await screen.findByText('No logs found.');
    expect(screen.queryByTestId('log-histogram')).toBeNull();
  });
});

describe('histogram on /photologs', () => {
  it('asks the photo-log histogram with the same filters and draws it', async () => {
    const seen = mockApi({
      ...settings,
      'GET /photologs/my': () => json(photoLogPage([apiLog({ log_type: 'photo', image_path: '/api/photologs/image/p', thumb_path: '/api/photologs/image/p' })])),
      'GET /photologs/my/histogram': () => json({ ...ANSWER, capped: true, countedFrom: '2026-01-02T09:00:00.000Z' }),
    });
    renderScreen(<PhotoLogsPage />, { session: SIGNED_IN });
    await screen.findByRole('img', { name: /Histogram of 9 matching logs \(the newest counted\)/ });
    expect(screen.getByText(/9 newest matching photo logs, 1-hour bars \(counted since/)).toBeTruthy();
    expect(seen.some((r) => new URL(r.url).pathname === '/api/photologs/my/histogram')).toBe(true);
  });
});
