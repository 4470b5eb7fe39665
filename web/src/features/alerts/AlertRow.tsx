import type { ApiAlertRule, ApiWebhook, WebhookOptions } from '@skald/contracts/api';
import { Button, Tag } from 'antd';
import { useState } from 'react';
import { IntegrationRow, type IntegrationRowMode } from '../common/IntegrationRow.tsx';
import { AlertForm, webhookLabel } from './AlertForm.tsx';
import { AlertHistory } from './AlertHistory.tsx';
import { conditionText, filterSummary, fromAlertRule, type AlertFormValues } from './alertForm.ts';

/** A row is normal, editing, or awaiting delete confirmation (as the webhooks' rows). */
export type AlertRowMode = IntegrationRowMode<AlertFormValues>;

interface Props {
  rule: ApiAlertRule;
  mode: AlertRowMode;
  webhooks: readonly ApiWebhook[];
  options?: WebhookOptions;
  busy: { saving: boolean; deleting: boolean; testing: boolean };
  onMode(next: AlertRowMode): void;
  onSave(): void;
  onDelete(): void;
  onTest(): void;
}

const when = (iso: string | null) => (iso === null ? 'Never' : new Date(iso).toLocaleString());

export function AlertRow({ rule, mode, webhooks, options, busy, onMode, onSave, onDelete, onTest }: Props) {
  const [historyOpen, setHistoryOpen] = useState(false);
  const historyId = `alert-history-${rule.id}`;
  const notified = rule.webhookIds.map((id) => {
    const webhook = webhooks.find((w) => w.id === id);
    return webhook ? webhookLabel(webhook) : 'A deleted webhook';
  });
  return (
    <IntegrationRow
      testId="alert-row"
      label={`Alert rule ${rule.name}`}
      mode={mode}
      onMode={onMode}
      form={
        mode.kind === 'editing' && (
          <AlertForm
            value={mode.values}
            onChange={(values) => onMode({ kind: 'editing', values })}
            onSubmit={onSave}
            submitLabel="Save"
            busy={busy.saving}
            onCancel={() => onMode({ kind: 'normal' })}
            webhooks={webhooks}
            options={options}
            error={mode.error}
          />
        )
      }
      head={
        <>
          <strong>{rule.name}</strong>
          <span data-testid="alert-state">
            {rule.state === 'firing' ? <Tag color="red">Firing</Tag> : <Tag color="green">OK</Tag>}
            {!rule.enabled && <Tag>Disabled</Tag>}
          </span>
        </>
      }
      body={
        <dl className="webhook-facts">
          <dt>Condition</dt>
          <dd>{conditionText(rule)}</dd>
          <dt>Filter</dt>
          <dd>{filterSummary(rule.filter)}</dd>
          <dt>Cooldown</dt>
          <dd>{rule.cooldownSeconds} s</dd>
          <dt>Notifies</dt>
          <dd>{notified.length === 0 ? 'No webhook' : notified.join(', ')}</dd>
          <dt>Last fired</dt>
          <dd>{when(rule.lastFiredAt)}</dd>
          <dt>Last resolved</dt>
          <dd>{when(rule.lastResolvedAt)}</dd>
        </dl>
      }
      after={
        historyOpen && (
          <div id={historyId}>
            <AlertHistory ruleId={rule.id} />
          </div>
        )
      }
      confirmText="Delete this alert rule and its history?"
      editValues={() => fromAlertRule(rule)}
      extraActions={
        <Button onClick={() => setHistoryOpen((o) => !o)} aria-expanded={historyOpen} aria-controls={historyId}>
          {historyOpen ? 'Hide history' : 'Show history'}
        </Button>
      }
      busy={busy}
      onDelete={onDelete}
      onTest={onTest}
    />
  );
}
