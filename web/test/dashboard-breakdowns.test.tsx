import type { NamedCount, OtherCount } from '@skald/contracts/api';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { breakdownRows, hiddenNote } from '../src/features/dashboard/breakdownRows.ts';

// The chart library draws on a canvas jsdom lacks: capture the option it is given instead.
const drawn: { yAxis: { data: string[] }; series: { data: number[] }[] }[] = [];
vi.mock('echarts-for-react/esm/core', () => ({
  default: (props: { option: (typeof drawn)[number] }) => {
    drawn.push(props.option);
    return <div data-testid="echart" />;
  },
}));
const { SplitChart } = await import('../src/features/dashboard/DashboardCharts.tsx');

const rows = (n: number): NamedCount[] => Array.from({ length: n }, (_, i) => ({ name: `res-${i}`, text: 30 - i, photo: i === 0 ? 2 : 0 }));
const NONE: OtherCount = { names: 0, text: 0, photo: 0 };

describe('dashboard breakdowns', () => {
  it('adds one Other row for the names the server summed, and nothing when none', () => {
    const other: OtherCount = { names: 15, text: 120, photo: 3 };
    const drawnRows = breakdownRows(rows(10), other);
    expect(drawnRows).toHaveLength(11);
    expect(drawnRows[10]).toEqual({ name: 'Other (15)', text: 120, photo: 3 });
    expect(breakdownRows(rows(4), NONE)).toEqual(rows(4));
  });

  it('says how many names are summed, in words', () => {
    expect(hiddenNote(10, { names: 15, text: 120, photo: 0 }, 'resources')).toBe('Top 10 of 25 resources; the other 15 are summed in "Other".');
    expect(hiddenNote(10, { names: 1, text: 1, photo: 0 }, 'types')).toBe('Top 10 of 11 types; the other 1 is summed in "Other".');
    expect(hiddenNote(3, NONE, 'types')).toBeNull();
  });

  it('draws the Other bar and shows the note under the chart', () => {
    drawn.length = 0;
    render(<SplitChart title="Logs per resource" noun="resources" rows={rows(10)} other={{ names: 15, text: 120, photo: 3 }} mode="light" />);
    const option = drawn.at(-1)!;
    expect(option.yAxis.data).toHaveLength(11);
    expect(option.yAxis.data.at(-1)).toBe('Other (15)');
    expect(option.series.map((s) => s.data.at(-1))).toEqual([120, 3]);
    expect(screen.getByText('Top 10 of 25 resources; the other 15 are summed in "Other".')).toBeTruthy();
  });

  it('shows every row and no note when nothing is left out', () => {
    drawn.length = 0;
    render(<SplitChart title="Logs per level" noun="levels" rows={rows(5)} other={NONE} mode="dark" />);
    expect(drawn.at(-1)!.yAxis.data).toEqual(['res-0', 'res-1', 'res-2', 'res-3', 'res-4']);
    expect(screen.queryByText(/summed in/)).toBeNull();
  });
});
