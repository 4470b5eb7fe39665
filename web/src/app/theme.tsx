import { ConfigProvider } from 'antd';
import { createContext, useCallback, useContext, useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import { antdThemeConfig, cssVariables, type ThemeMode } from './palette.ts';
import { readStored, STORAGE_KEYS, writeStored } from './storage.ts';
import { ToastProvider } from './toast.tsx';

// Light by default, dark from the header toggle; the choice is kept in local storage.
export type { ThemeMode } from './palette.ts';

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
  const themeConfig = useMemo(() => antdThemeConfig(mode), [mode]);
  // Custom properties are valid inline style values; React's CSSProperties type just does not list them.
  const variables = useMemo(() => cssVariables(mode) as CSSProperties, [mode]);
  return (
    <ThemeContext.Provider value={value}>
      <ConfigProvider theme={themeConfig}>
        <ToastProvider>
          <div className={`skald-app skald-${mode}`} style={variables}>
            {children}
          </div>
        </ToastProvider>
      </ConfigProvider>
    </ThemeContext.Provider>
  );
}

export function useThemeMode(): ThemeContextValue {
  return useContext(ThemeContext);
}
