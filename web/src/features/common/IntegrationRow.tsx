import { Button } from 'antd';
import type { ReactNode } from 'react';

/** A row of an integrations list (webhooks, alert rules) is normal, editing its values, or awaiting delete confirmation. */
export type IntegrationRowMode<V> = { kind: 'normal' } | { kind: 'editing'; values: V; error?: string } | { kind: 'confirm-delete' };

interface Props<V> {
  testId: string;
  label: string;
  mode: IntegrationRowMode<V>;
  onMode(next: IntegrationRowMode<V>): void;
  /** The inline edit form, shown instead of the row while editing. */
  form: ReactNode;
  /** The head line (name, state). */
  head: ReactNode;
  /** Between the head and the actions: the facts. */
  body: ReactNode;
  /** Below the actions (dead letters, history). */
  after?: ReactNode;
  /** What the delete confirmation asks. */
  confirmText: string;
  /** The values the edit form opens with. */
  editValues(): V;
  /** Buttons between "Send test" and "Edit". */
  extraActions?: ReactNode;
  busy: { deleting: boolean; testing: boolean };
  onDelete(): void;
  onTest(): void;
}

/**
 * One row of the webhooks and alerts lists: inline edit in place of the row, the head and facts, then the
 * actions (Send test, the row's own, Edit, Delete) with the delete asking for a confirmation first.
 */
export function IntegrationRow<V>({ testId, label, mode, onMode, form, head, body, after, confirmText, editValues, extraActions, busy, onDelete, onTest }: Props<V>) {
  return (
    <li className="webhook-row" data-testid={testId} aria-label={label}>
      {mode.kind === 'editing' ? (
        form
      ) : (
        <>
          <div className="webhook-head">{head}</div>
          {body}
          <div className="webhook-actions">
            {mode.kind === 'confirm-delete' ? (
              <>
                <span role="alert">{confirmText}</span>
                <Button type="primary" className="webhook-danger" onClick={onDelete} loading={busy.deleting}>
                  Confirm delete
                </Button>
                <Button onClick={() => onMode({ kind: 'normal' })}>Cancel</Button>
              </>
            ) : (
              <>
                <Button onClick={onTest} loading={busy.testing}>
                  Send test
                </Button>
                {extraActions}
                <Button onClick={() => onMode({ kind: 'editing', values: editValues() })}>Edit</Button>
                <Button className="webhook-danger" onClick={() => onMode({ kind: 'confirm-delete' })}>
                  Delete
                </Button>
              </>
            )}
          </div>
          {after}
        </>
      )}
    </li>
  );
}
