import type { AlertKind, ApiWebhook, WebhookOptions } from '@skald/contracts/api';
import { Col, Input } from 'antd';
import { useId } from 'react';
import { IntegrationForm, LogFilterFields } from '../common/IntegrationForm.tsx';
import { maskUrl, PLATFORM_LABELS } from '../webhooks/webhookForm.ts';
import { KIND_LABELS, type AlertFormValues } from './alertForm.ts';

interface Props {
  value: AlertFormValues;
  onChange(next: AlertFormValues): void;
  onSubmit(): void;
  submitLabel: string;
  busy: boolean;
  /** The add button is also disabled at the tier's limit. */
  disabled?: boolean;
  onCancel?: () => void;
  /** The server's webhooks, the ones a rule may notify. */
  webhooks: readonly ApiWebhook[];
  options?: WebhookOptions;
  /** Why the last submit was refused (by the form or the server), shown above the buttons. */
  error?: string | null;
}

const KINDS: readonly AlertKind[] = ['threshold', 'absence'];

/** A webhook as the picker and the list name it: its platform and its masked URL (the path is a secret). */
export function webhookLabel(webhook: Pick<ApiWebhook, 'platform' | 'url'>): string {
  return `${PLATFORM_LABELS[webhook.platform]} · ${maskUrl(webhook.url)}`;
}

/**
 * The add form and each row's inline edit form (docs/ALERTS.md): name, kind, threshold (threshold rules),
 * window and cooldown, the filter (level, type, resource, message search, metadata key=value lines, empty
 * meaning any) and the webhooks to notify. Native controls keep it keyboard- and screen-reader-friendly.
 */
export function AlertForm({ value, onChange, onSubmit, submitLabel, busy, disabled = false, onCancel, webhooks, options, error = null }: Props) {
  const id = useId();
  const set = <K extends keyof AlertFormValues>(key: K, next: AlertFormValues[K]) => onChange({ ...value, [key]: next });
  const toggleWebhook = (webhookId: string, on: boolean) =>
    set('webhookIds', on ? [...value.webhookIds, webhookId] : value.webhookIds.filter((w) => w !== webhookId));
  return (
    <IntegrationForm className="alert-form" submitLabel={submitLabel} onSubmit={onSubmit} busy={busy} disabled={disabled} onCancel={onCancel} error={error}>
      <Col xs={24} lg={12}>
        <label className="field-label" htmlFor={`${id}-name`}>Name</label>
        <Input id={`${id}-name`} value={value.name} onChange={(e) => set('name', e.target.value)} placeholder="Too many errors" autoComplete="off" />
      </Col>
      <Col xs={24} sm={12} lg={12}>
        <label className="field-label" htmlFor={`${id}-kind`}>Kind</label>
        <select id={`${id}-kind`} className="native-select full-width" value={value.kind} onChange={(e) => set('kind', e.target.value as AlertKind)}>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </select>
      </Col>
      {value.kind === 'threshold' && (
        <Col xs={24} sm={8}>
          <label className="field-label" htmlFor={`${id}-threshold`}>Threshold (logs)</label>
          <Input id={`${id}-threshold`} inputMode="numeric" value={value.threshold} onChange={(e) => set('threshold', e.target.value)} />
        </Col>
      )}
      <Col xs={24} sm={8}>
        <label className="field-label" htmlFor={`${id}-window`}>Window (seconds)</label>
        <Input id={`${id}-window`} inputMode="numeric" value={value.windowSeconds} onChange={(e) => set('windowSeconds', e.target.value)} />
      </Col>
      <Col xs={24} sm={8}>
        <label className="field-label" htmlFor={`${id}-cooldown`}>Cooldown (seconds)</label>
        <Input id={`${id}-cooldown`} inputMode="numeric" value={value.cooldownSeconds} onChange={(e) => set('cooldownSeconds', e.target.value)} />
      </Col>
      <LogFilterFields
        id={id}
        type={value.type}
        level={value.level}
        resource={value.resource}
        onType={(next) => set('type', next)}
        onLevel={(next) => set('level', next)}
        onResource={(next) => set('resource', next)}
        emptyLabel="Any"
        options={options}
      />
      <Col xs={24} lg={12}>
        <label className="field-label" htmlFor={`${id}-search`}>Message contains</label>
        <Input id={`${id}-search`} value={value.search} onChange={(e) => set('search', e.target.value)} placeholder="Any" />
      </Col>
      <Col xs={24} lg={12}>
        <label className="field-label" htmlFor={`${id}-metadata`}>Metadata (key=value, one a line)</label>
        <Input.TextArea id={`${id}-metadata`} value={value.metadata} onChange={(e) => set('metadata', e.target.value)} placeholder="job=police" autoSize={{ minRows: 1, maxRows: 6 }} spellCheck={false} />
      </Col>
      <Col xs={24}>
        <fieldset className="alert-webhooks">
          <legend className="field-label">Webhooks to notify</legend>
          {webhooks.length === 0 ? (
            <span className="muted">No webhooks yet: add one on the Webhooks screen.</span>
          ) : (
            webhooks.map((w) => (
              <label key={w.id} className="alert-webhook-choice">
                <input type="checkbox" checked={value.webhookIds.includes(w.id)} onChange={(e) => toggleWebhook(w.id, e.target.checked)} /> {webhookLabel(w)}
              </label>
            ))
          )}
        </fieldset>
      </Col>
      <Col xs={24}>
        <label className="alert-enabled">
          <input type="checkbox" checked={value.enabled} onChange={(e) => set('enabled', e.target.checked)} /> Enabled
        </label>
      </Col>
    </IntegrationForm>
  );
}
