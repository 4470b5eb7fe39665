import type { WebhookOptions, WebhookPlatform } from '@skald/contracts/api';
import { Alert, Button, Col, Input, Row } from 'antd';
import { useId, type FormEvent } from 'react';
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
 * routing key for PagerDuty), and the three filters, empty meaning all. Type and resource suggest the
 * values seen in the server's logs; the level offers the five levels. Native selects keep it keyboard- and
 * screen-reader-friendly without antd's popup code.
 */
export function WebhookForm({ value, onChange, onSubmit, submitLabel, busy, disabled = false, onCancel, options, error = null }: Props) {
  const id = useId();
  const set = <K extends keyof WebhookFormValues>(key: K, next: WebhookFormValues[K]) => onChange({ ...value, [key]: next });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="webhook-form" onSubmit={submit} aria-label={submitLabel}>
      <Row gutter={[12, 12]}>
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
        <Col xs={24} sm={8}>
          <label className="field-label" htmlFor={`${id}-type`}>Event type</label>
          <Input id={`${id}-type`} list={`${id}-types`} value={value.event_type} onChange={(e) => set('event_type', e.target.value)} placeholder="All" />
          <datalist id={`${id}-types`}>{options?.eventTypes.map((t) => <option key={t} value={t} />)}</datalist>
        </Col>
        <Col xs={24} sm={8}>
          <label className="field-label" htmlFor={`${id}-level`}>Log level</label>
          <select id={`${id}-level`} className="native-select full-width" value={value.log_level} onChange={(e) => set('log_level', e.target.value)}>
            <option value="">All</option>
            {(options?.logLevels ?? ['info', 'warn', 'error', 'fatal', 'debug']).map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </Col>
        <Col xs={24} sm={8}>
          <label className="field-label" htmlFor={`${id}-resource`}>Resource</label>
          <Input id={`${id}-resource`} list={`${id}-resources`} value={value.resource} onChange={(e) => set('resource', e.target.value)} placeholder="All" />
          <datalist id={`${id}-resources`}>{options?.resources.map((r) => <option key={r} value={r} />)}</datalist>
        </Col>
      </Row>
      {error && <Alert type="error" title={error} className="form-alert" showIcon />}
      <div className="webhook-form-actions">
        <Button type="primary" htmlType="submit" loading={busy} disabled={disabled || busy}>
          {submitLabel}
        </Button>
        {onCancel && <Button onClick={onCancel}>Cancel</Button>}
      </div>
    </form>
  );
}
