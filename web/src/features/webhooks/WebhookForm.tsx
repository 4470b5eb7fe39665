import type { WebhookOptions, WebhookPlatform } from '@skald/contracts/api';
import { Col, Input } from 'antd';
import { useId } from 'react';
import { IntegrationForm, LogFilterFields } from '../common/IntegrationForm.tsx';
import { chatIdLabel, PLATFORM_LABELS, PLATFORMS, usesChatId, type WebhookFormValues } from './webhookForm.ts';

interface Props {
  value: WebhookFormValues;
  onChange(next: WebhookFormValues): void;
  onSubmit(): void;
  submitLabel: string;
  busy: boolean;
  /** Beside busy: the add button is also disabled at the tier's limit (docs/spec/part-1.txt section 5). */
  disabled?: boolean;
  onCancel?: () => void;
  options?: WebhookOptions;
  /** Why the server refused the last submit, shown above the buttons (the spec's toast says only that it failed). */
  error?: string | null;
}

/**
 * The add form and each row's inline edit form (docs/spec/part-1.txt sections 2, 5): URL, platform, chat_id (Telegram; the
 * routing key for PagerDuty), and the three filters (LogFilterFields), empty meaning all.
 */
export function WebhookForm({ value, onChange, onSubmit, submitLabel, busy, disabled = false, onCancel, options, error = null }: Props) {
  const id = useId();
  const set = <K extends keyof WebhookFormValues>(key: K, next: WebhookFormValues[K]) => onChange({ ...value, [key]: next });
  return (
    <IntegrationForm className="webhook-form" submitLabel={submitLabel} onSubmit={onSubmit} busy={busy} disabled={disabled} onCancel={onCancel} error={error}>
      <Col xs={24} lg={12}>
        <label className="field-label" htmlFor={`${id}-url`}>URL</label>
        <Input id={`${id}-url`} value={value.url} onChange={(e) => set('url', e.target.value)} placeholder="https://discord.com/api/webhooks/…" autoComplete="off" spellCheck={false} />
      </Col>
      <Col xs={24} sm={12} lg={6}>
        <label className="field-label" htmlFor={`${id}-platform`}>Platform</label>
        <select id={`${id}-platform`} className="native-select full-width" value={value.platform} onChange={(e) => set('platform', e.target.value as WebhookPlatform)}>
          {PLATFORMS.map((p) => (
            <option key={p} value={p}>
              {PLATFORM_LABELS[p]}
            </option>
          ))}
        </select>
      </Col>
      {usesChatId(value.platform) && (
        <Col xs={24} sm={12} lg={6}>
          <label className="field-label" htmlFor={`${id}-chat`}>{chatIdLabel(value.platform)}</label>
          <Input id={`${id}-chat`} value={value.chat_id} onChange={(e) => set('chat_id', e.target.value)} autoComplete="off" />
        </Col>
      )}
      <LogFilterFields
        id={id}
        type={value.event_type}
        level={value.log_level}
        resource={value.resource}
        onType={(next) => set('event_type', next)}
        onLevel={(next) => set('log_level', next)}
        onResource={(next) => set('resource', next)}
        emptyLabel="All"
        options={options}
      />
    </IntegrationForm>
  );
}
