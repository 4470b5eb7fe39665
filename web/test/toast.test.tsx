import { act, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { ThemeProvider } from '../src/app/theme.tsx';
import { useToast, type Toast } from '../src/app/toast.tsx';

// antd's message code loads after the first screen: toasts asked for before it is there
// wait for it and none is lost.
describe('toasts', () => {
  it('shows toasts asked for before the toast code loaded, and later ones', async () => {
    let toast: Toast | undefined;
    function Asker() {
      const current = useToast();
      useEffect(() => {
        toast = current;
        current.success('Saved first');
        current.error('Failed second');
      }, [current]);
      return null;
    }
    render(
      <ThemeProvider>
        <Asker />
      </ThemeProvider>,
    );
    expect(await screen.findByText('Saved first')).toBeTruthy();
    expect(await screen.findByText('Failed second')).toBeTruthy();
    act(() => toast?.success('Saved third'));
    expect(await screen.findByText('Saved third')).toBeTruthy();
  });
});
