import { message } from 'antd';
import { useEffect } from 'react';
import { TOAST_SECONDS, type ToastHostProps } from './toast.tsx';

/**
 * antd's message holder, loaded lazily by ToastProvider (toast.tsx). message.useMessage keeps toasts
 * themed (unlike the static API) without pulling in App's modal code.
 */
export function ToastHost({ onReady }: ToastHostProps) {
  const [api, holder] = message.useMessage();
  useEffect(() => {
    onReady((kind, text) => void api[kind](text, TOAST_SECONDS[kind]));
    return () => onReady(null);
  }, [api, onReady]);
  return holder;
}
