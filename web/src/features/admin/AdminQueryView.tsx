import { Alert, Space, Spin } from 'antd';
import type { ReactNode } from 'react';
import { ADMIN_TEXT } from './adminText.ts';

interface Props<T> {
  data: T | undefined;
  isLoading: boolean;
  isError: boolean;
  /** The line beside the spinner while the list loads. */
  loadingText: string;
  children(data: T): ReactNode;
}

/** A staff page's list: a loading line while it loads, the no-access alert when it cannot be had, else the list. */
export function AdminQueryView<T>({ data, isLoading, isError, loadingText, children }: Props<T>) {
  if (isLoading) {
    return (
      <Space role="status">
        <Spin /> <span>{loadingText}</span>
      </Space>
    );
  }
  if (isError || data === undefined) return <Alert type="error" title={ADMIN_TEXT.noAccess} showIcon />;
  return <>{children(data)}</>;
}
