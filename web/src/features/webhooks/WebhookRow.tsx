import type { ApiWebhook, WebhookOptions } from '@skald/contracts/api';
import { Alert } from 'antd';
import { IntegrationRow, type IntegrationRowMode } from '../common/IntegrationRow.tsx';
import { DeadLetters } from './DeadLetters.tsx';
import { WebhookForm } from './WebhookForm.tsx';
import { filterText, fromWebhook, lastAttemptText, maskUrl, PLATFORM_LABELS, type WebhookFormValues } from './webhookForm.ts';

/** docs/spec/part-1.txt section 4: a row is normal, editing, or awaiting delete confirmation. */
export type RowMode = IntegrationRowMode<WebhookFormValues>;

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
  return (
    <IntegrationRow
      testId="webhook-row"
      label={`${PLATFORM_LABELS[webhook.platform]} webhook`}
      mode={mode}
      onMode={onMode}
      form={mode.kind === 'editing' && <WebhookForm value={mode.values} onChange={onEdit} onSubmit={onSave} submitLabel="Save" busy={busy.saving} onCancel={() => onMode({ kind: 'normal' })} options={options} error={mode.error} />}
      head={
        <>
          <strong>{PLATFORM_LABELS[webhook.platform]}</strong>
          <code className="webhook-url" title="The URL is hidden: it is a secret">
            {maskUrl(webhook.url)}
          </code>
        </>
      }
      body={
        <>
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
        </>
      }
      confirmText="Delete this webhook?"
      editValues={() => fromWebhook(webhook)}
      busy={busy}
      onDelete={onDelete}
      onTest={onTest}
    />
  );
}
