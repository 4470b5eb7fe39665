import { Alert, Button, Form } from 'antd';
import type { ReactNode } from 'react';

export interface AuthAnswer {
  kind: 'success' | 'error';
  text: string;
}

interface Props<T> {
  onSubmit(values: T): void;
  submitLabel: string;
  /** The request is on its way: the button spins. */
  busy: boolean;
  /** Shown above the button; a plain string is an error. */
  answer: AuthAnswer | string | null;
  /** Skald's sentences instead of the browser's, for a form whose e-mail field keeps its type. */
  noValidate?: boolean;
  children: ReactNode;
}

/** The form of the sign-in screens: its fields, the last answer, one full-width submit button. */
export function AuthForm<T>({ onSubmit, submitLabel, busy, answer, noValidate, children }: Props<T>) {
  const shown = typeof answer === 'string' ? { kind: 'error' as const, text: answer } : answer;
  return (
    <Form<T> layout="vertical" onFinish={onSubmit} requiredMark={false} noValidate={noValidate}>
      {children}
      {shown && <Alert type={shown.kind} title={shown.text} className="form-alert" showIcon />}
      <Button type="primary" htmlType="submit" block loading={busy}>
        {submitLabel}
      </Button>
    </Form>
  );
}
