import { ConfigProvider, theme as antTheme } from 'antd';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { readStored, STORAGE_KEYS, writeStored } from './storage.ts';
import { ToastProvider } from './toast.tsx';

// Light by default, dark from the header toggle; the choice is kept in local storage.
export type ThemeMode = 'light' | 'dark';

interface ThemeContextValue {
  mode: ThemeMode;
  toggle(): void;
}

const ThemeContext = createContext<ThemeContextValue>({ mode: 'light', toggle: () => undefined });

export function storedThemeMode(): ThemeMode {
  return readStored(STORAGE_KEYS.theme) === 'dark' ? 'dark' : 'light';
}

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<ThemeMode>(storedThemeMode);
  const toggle = useCallback(() => {
    setMode((current) => {
      const next = current === 'dark' ? 'light' : 'dark';
      writeStored(STORAGE_KEYS.theme, next);
      return next;
    });
  }, []);
  const value = useMemo(() => ({ mode, toggle }), [mode, toggle]);
  const themeConfig = useMemo(
    () => ({
      algorithm: mode === 'dark' ? antTheme.darkAlgorithm : antTheme.defaultAlgorithm,
      token: { colorPrimary: '#2563eb' },
    }),
    [mode],
  );
  return (
    <ThemeContext.Provider value={value}>
      <ConfigProvider theme={themeConfig}>
        <ToastProvider>
          <div className={`skald-app skald-${mode}`}>{children}</div>
        </ToastProvider>
      </ConfigProvider>
    </ThemeContext.Provider>
  );
}

export function useThemeMode(): ThemeContextValue {
  return useContext(ThemeContext);
}
