import type { DayCount, NamedCount } from '@skald/contracts/api';
import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

// The chart library draws on a canvas jsdom lacks: capture the option each chart is given instead.
const drawn: Record<string, unknown>[] = [];
vi.mock('echarts-for-react/esm/core', () => ({
  default: (props: { option: Record<string, unknown> }) => {
    drawn.push(props.option);
    return <div data-testid="echart" />;
  },
}));
const { DailyChart, SplitChart } = await import('../src/features/dashboard/DashboardCharts.tsx');

const days: DayCount[] = [{ date: '2026-01-01', text: 3, photo: 1 }];
const rows: NamedCount[] = [{ name: 'Join', text: 3, photo: 1 }];

describe('dashboard charts', () => {
  it('draw without animation, in both themes', () => {
    drawn.length = 0;
    render(<DailyChart days={days} mode="light" />);
    render(<SplitChart title="Logs per type" noun="types" rows={rows} other={{ names: 0, text: 0, photo: 0 }} mode="dark" />);
    expect(drawn).toHaveLength(2);
    for (const option of drawn) expect(option.animation).toBe(false);
  });
});
