import type { ApiWebhook, WebhookOptions } from '@skald/contracts/api';
import { Alert, Button } from 'antd';
import { DeadLetters } from './DeadLetters.tsx';
import { WebhookForm } from './WebhookForm.tsx';
import { filterText, fromWebhook, lastAttemptText, maskUrl, PLATFORM_LABELS, type WebhookFormValues } from './webhookForm.ts';

/** docs/spec/part-1.txt section 4: a row is normal, editing, or awaiting delete confirmation. */
export type RowMode = { kind: 'normal' } | { kind: 'editing'; values: WebhookFormValues; error?: string } | { kind: 'confirm-delete' };

interface Props {
  webhook: ApiWebhook;
  mode: RowMode;
  options?: WebhookOptions;
  busy: { saving: boolean; deleting: boolean; testing: boolean; replaying: string | null };
  onMode(next: RowMode): void;
  onEdit(values: WebhookFormValues): void;
  onSave(): void;
  onDelete(): void;
  onTest(): void;
  onReplay(deadLetterId: string): void;
  onClearDeadLetters(): void;
}

export function WebhookRow({ webhook, mode, options, busy, onMode, onEdit, onSave, onDelete, onTest, onReplay, onClearDeadLetters }: Props) {
  const title = `${PLATFORM_LABELS[webhook.platform]} webhook`;
  return (
    <li className="webhook-row" data-testid="webhook-row" aria-label={title}>
      {mode.kind === 'editing' ? (
        <WebhookForm value={mode.values} onChange={onEdit} onSubmit={onSave} submitLabel="Save" busy={busy.saving} onCancel={() => onMode({ kind: 'normal' })} options={options} error={mode.error} />
      ) : (
        <>
          <div className="webhook-head">
            <strong>{PLATFORM_LABELS[webhook.platform]}</strong>
            <code className="webhook-url" title="The URL is hidden: it is a secret">
              {maskUrl(webhook.url)}
            </code>
          </div>
          {!webhook.enabled && <Alert type="warning" showIcon title={webhook.disabled_reason ?? 'This webhook is disabled.'} />}
          <dl className="webhook-facts">
            <dt>Event type</dt>
            <dd>{filterText(webhook.event_type)}</dd>
            <dt>Log level</dt>
            <dd>{filterText(webhook.log_level)}</dd>
            <dt>Resource</dt>
            <dd>{filterText(webhook.resource)}</dd>
            <dt>Last attempt</dt>
            <dd data-testid="last-attempt">
              {lastAttemptText(webhook)}
              {webhook.last_attempt_time && <span className="muted"> · {new Date(webhook.last_attempt_time).toLocaleString()}</span>}
            </dd>
            <dt>Failed attempts</dt>
            <dd data-testid="failed-attempts">{webhook.failed_attempts}</dd>
          </dl>
          <DeadLetters webhookId={webhook.id} count={webhook.dead_letters_count} deadLetters={webhook.dead_letters} replaying={busy.replaying} onReplay={onReplay} onClear={onClearDeadLetters} />
          <div className="webhook-actions">
            {mode.kind === 'confirm-delete' ? (
              <>
                <span role="alert">Delete this webhook?</span>
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
                <Button onClick={() => onMode({ kind: 'editing', values: fromWebhook(webhook) })}>Edit</Button>
                <Button className="webhook-danger" onClick={() => onMode({ kind: 'confirm-delete' })}>
                  Delete
                </Button>
              </>
            )}
          </div>
        </>
      )}
    </li>
  );
}
