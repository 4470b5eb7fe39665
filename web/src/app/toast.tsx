import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ComponentType, type ReactNode } from 'react';

// docs/spec/part-1.txt section 8: errors stay 4 s, successes 2 s.
export const TOAST_SECONDS = { error: 4, success: 2 } as const;

export type ToastKind = keyof typeof TOAST_SECONDS;
export type ShowToast = (kind: ToastKind, text: string) => void;

export interface Toast {
  success(text: string): void;
  error(text: string): void;
}

/** The lazily loaded part (ToastHost.tsx) hands its show function over once mounted, and null when it goes. */
export interface ToastHostProps {
  onReady(show: ShowToast | null): void;
}

const ToastContext = createContext<Toast>({ success: () => undefined, error: () => undefined });

const loadToastHost = () => import('./ToastHost.tsx');

/** Runs `task` once the browser has nothing better to do (a timer where requestIdleCallback is missing). */
function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: 5000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, 2000);
  return () => window.clearTimeout(id);
}

/**
 * Toasts through antd's message (themed by the ConfigProvider around it). antd's message code is no part
 * of the first load: it is fetched when the browser is idle after the first screen, or
 * at the first toast if that comes sooner; toasts asked for meanwhile wait and show once it is there.
 * Fetching it early rather than at the first toast keeps toasts working after the connection drops.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [Host, setHost] = useState<ComponentType<ToastHostProps> | null>(null);
  const show = useRef<ShowToast | null>(null);
  const waiting = useRef<[ToastKind, string][]>([]);
  const loading = useRef(false);

  const load = useCallback(() => {
    if (loading.current) return;
    loading.current = true;
    loadToastHost().then(
      (module) => setHost(() => module.ToastHost),
      (error: unknown) => {
        // Offline before it ever loaded: the next toast tries again.
        loading.current = false;
        console.warn('Could not load the toast code.', error);
      },
    );
  }, []);

  useEffect(() => whenIdle(load), [load]);

  const onReady = useCallback((next: ShowToast | null) => {
    show.current = next;
    if (next) for (const [kind, text] of waiting.current.splice(0)) next(kind, text);
  }, []);

  const toast = useMemo<Toast>(() => {
    const push = (kind: ToastKind, text: string) => {
      if (show.current) {
        show.current(kind, text);
        return;
      }
      waiting.current.push([kind, text]);
      load();
    };
    return { success: (text) => push('success', text), error: (text) => push('error', text) };
  }, [load]);

  return (
    <ToastContext.Provider value={toast}>
      {Host && <Host onReady={onReady} />}
      {children}
    </ToastContext.Provider>
  );
}

export function useToast(): Toast {
  return useContext(ToastContext);
}
