import type { WebhookOptions } from '@skald/contracts/api';
import { Alert, Button, Col, Input, Row } from 'antd';
import type { FormEvent, ReactNode } from 'react';

interface FormProps {
  className: string;
  submitLabel: string;
  onSubmit(): void;
  busy: boolean;
  /** Beside busy: the add button is also disabled at the tier's limit. */
  disabled?: boolean;
  onCancel?: () => void;
  /** Why the last submit was refused (by the form or the server), shown above the buttons. */
  error?: string | null;
  /** The fields: antd Cols of one Row. */
  children: ReactNode;
}

/** The frame of the webhooks' and alerts' add and edit forms: the fields in a grid, the refusal, submit and cancel. */
export function IntegrationForm({ className, submitLabel, onSubmit, busy, disabled = false, onCancel, error = null, children }: FormProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className={className} onSubmit={submit} aria-label={submitLabel}>
      <Row gutter={[12, 12]}>{children}</Row>
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

interface FilterProps {
  /** The form's useId(), prefixing the fields' ids. */
  id: string;
  type: string;
  level: string;
  resource: string;
  onType(next: string): void;
  onLevel(next: string): void;
  onResource(next: string): void;
  /** What an empty field means, as the placeholder and the level's first choice ('All', 'Any'). */
  emptyLabel: string;
  /** Values seen in the server's logs, suggested for type and resource. */
  options?: WebhookOptions;
}

/**
 * The three log filters webhooks and alert rules share: event type and resource with the values seen in the
 * server's logs suggested, the level among the five. Native controls keep them keyboard- and
 * screen-reader-friendly without antd's popup code.
 */
export function LogFilterFields({ id, type, level, resource, onType, onLevel, onResource, emptyLabel, options }: FilterProps) {
  const levelField = (
    <Col xs={24} sm={8}>
      <label className="field-label" htmlFor={`${id}-level`}>Log level</label>
      <select id={`${id}-level`} className="native-select full-width" value={level} onChange={(e) => onLevel(e.target.value)}>
        <option value="">{emptyLabel}</option>
        {(options?.logLevels ?? ['info', 'warn', 'error', 'fatal', 'debug']).map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
    </Col>
  );
  const typeField = (
    <Col xs={24} sm={8}>
      <label className="field-label" htmlFor={`${id}-type`}>Event type</label>
      <Input id={`${id}-type`} list={`${id}-types`} value={type} onChange={(e) => onType(e.target.value)} placeholder={emptyLabel} />
      <datalist id={`${id}-types`}>{options?.eventTypes.map((t) => <option key={t} value={t} />)}</datalist>
    </Col>
  );
  const resourceField = (
    <Col xs={24} sm={8}>
      <label className="field-label" htmlFor={`${id}-resource`}>Resource</label>
      <Input id={`${id}-resource`} list={`${id}-resources`} value={resource} onChange={(e) => onResource(e.target.value)} placeholder={emptyLabel} />
      <datalist id={`${id}-resources`}>{options?.resources.map((r) => <option key={r} value={r} />)}</datalist>
    </Col>
  );
  return (
    <>
      {typeField}
      {levelField}
      {resourceField}
    </>
  );
}
