import { message } from 'antd';
import { createContext, useContext, useMemo, type ReactNode } from 'react';

// Spec 000 §8: errors stay 4 s, successes 2 s.
export const TOAST_SECONDS = { error: 4, success: 2 } as const;

export interface Toast {
  success(text: string): void;
  error(text: string): void;
}

const ToastContext = createContext<Toast>({ success: () => undefined, error: () => undefined });

// message.useMessage keeps toasts themed (unlike the static API) without pulling in App's modal code.
export function ToastProvider({ children }: { children: ReactNode }) {
  const [api, holder] = message.useMessage();
  const toast = useMemo<Toast>(
    () => ({
      success: (text) => void api.success(text, TOAST_SECONDS.success),
      error: (text) => void api.error(text, TOAST_SECONDS.error),
    }),
    [api],
  );
  return (
    <ToastContext.Provider value={toast}>
      {holder}
      {children}
    </ToastContext.Provider>
  );
}

export function useToast(): Toast {
  return useContext(ToastContext);
}
