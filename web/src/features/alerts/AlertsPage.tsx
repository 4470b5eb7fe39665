import type { AlertTestResult } from '@skald/contracts/api';
import { Alert, Empty, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { errorText, statusOf } from '../../app/errors.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useToast } from '../../app/toast.tsx';
import { Panel } from '../common/Panel.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';
import { useWebhookOptionsQuery, useWebhooksQuery } from '../webhooks/webhooksApi.ts';
import { AlertForm } from './AlertForm.tsx';
import { AlertRow, type AlertRowMode } from './AlertRow.tsx';
import { ALERT_TEXT, alertFormProblem, alertsUsedLine, EMPTY_ALERT_FORM, toAlertBody, type AlertFormValues } from './alertForm.ts';
import { ALERTS_POLL_MS, useAddAlertMutation, useAlertsQuery, useDeleteAlertMutation, useTestAlertMutation, useUpdateAlertMutation } from './alertsApi.ts';

export const ALERTS_SCREEN_TEXT = {
  noServer: 'Select a server.',
  loading: 'Loading alert rules...',
  failed: 'Failed to load alert rules.',
  empty: 'No alert rules yet.',
} as const;

/** Why a test did not reach every webhook: the first failure's reason. */
function testFailure(result: AlertTestResult): string | null {
  const failed = result.results.find((r) => !r.ok);
  if (!failed) return null;
  return failed.error ?? (failed.statusCode === null ? 'No response.' : `The receiver answered HTTP ${failed.statusCode}.`);
}

/**
 * /alerts (docs/ALERTS.md): the add form, the rules with their state (ok, firing), inline edit, delete
 * confirmation, each rule's history and a test per rule; 'n / limit alert rules used'. A server whose tier
 * allows no rule, and a member with the user role (the server answers 403), go to /dashboard.
 */
export default function AlertsPage() {
  const { serverId, serverName } = useAppSelector((s) => s.session);
  const toast = useToast();
  const list = useAlertsQuery(serverId ?? '', { skip: !serverId, pollingInterval: ALERTS_POLL_MS, skipPollingIfUnfocused: true });
  const webhooks = useWebhooksQuery(serverId ?? '', { skip: !serverId });
  const options = useWebhookOptionsQuery(serverId ?? '', { skip: !serverId });
  const [add, adding] = useAddAlertMutation();
  const [update, updating] = useUpdateAlertMutation();
  const [remove, removing] = useDeleteAlertMutation();
  const [test] = useTestAlertMutation();
  const [form, setForm] = useState<AlertFormValues>(EMPTY_ALERT_FORM);
  const [modes, setModes] = useState<Record<string, AlertRowMode>>({});
  const [testing, setTesting] = useState<string | null>(null);
  const [addError, setAddError] = useState<string | null>(null);

  // A new server: nothing of the previous one's rows stays.
  useEffect(() => {
    setModes({});
    setAddError(null);
    setForm(EMPTY_ALERT_FORM);
  }, [serverId]);

  if (!serverId) {
    return (
      <div className="page">
        <PageTitle>Alerts</PageTitle>
        <Empty description={ALERTS_SCREEN_TEXT.noServer} />
      </div>
    );
  }
  const limit = list.data?.limit;
  if (limit === 0) return <Navigate to="/dashboard" replace />;
  if (statusOf(list.error) === 403) return <Navigate to="/dashboard" replace />;

  const setMode = (id: string, mode: AlertRowMode) => setModes((m) => ({ ...m, [id]: mode }));
  const modeOf = (id: string): AlertRowMode => modes[id] ?? { kind: 'normal' };
  const count = list.data?.count ?? 0;
  const atLimit = limit !== undefined && count >= limit;
  const serverWebhooks = webhooks.data?.webhooks ?? [];

  const submitAdd = async () => {
    const problem = alertFormProblem(form);
    if (problem) return setAddError(problem);
    setAddError(null);
    try {
      await add({ serverId, ...toAlertBody(form) }).unwrap();
      setForm(EMPTY_ALERT_FORM);
      toast.success(ALERT_TEXT.added);
    } catch (err) {
      toast.error(ALERT_TEXT.addFailed);
      setAddError(errorText(err, '') || null);
    }
  };

  const save = async (id: string) => {
    const mode = modeOf(id);
    if (mode.kind !== 'editing') return;
    const problem = alertFormProblem(mode.values);
    if (problem) return setMode(id, { kind: 'editing', values: mode.values, error: problem });
    try {
      await update({ serverId, id, body: toAlertBody(mode.values) }).unwrap();
      setMode(id, { kind: 'normal' });
      toast.success(ALERT_TEXT.updated);
    } catch (err) {
      toast.error(ALERT_TEXT.updateFailed);
      const reason = errorText(err, '');
      setMode(id, { kind: 'editing', values: mode.values, ...(reason ? { error: reason } : {}) });
    }
  };

  const del = async (id: string) => {
    try {
      await remove({ serverId, id }).unwrap();
      toast.success(ALERT_TEXT.deleted);
    } catch (err) {
      toast.error(errorText(err, ALERT_TEXT.deleteFailed));
    }
  };

  const sendTest = async (id: string) => {
    setTesting(id);
    try {
      const failure = testFailure(await test({ id }).unwrap());
      if (failure) toast.error(`${ALERT_TEXT.testFailed} ${failure}`);
      else toast.success(ALERT_TEXT.testSent);
    } catch (err) {
      toast.error(errorText(err, ALERT_TEXT.testFailed));
    } finally {
      setTesting(null);
    }
  };

  return (
    <div className="page">
      <PageTitle>Alerts – {serverName}</PageTitle>
      {limit !== undefined && (
        <Typography.Paragraph className="count-line" data-testid="alerts-used">
          {alertsUsedLine(count, limit)}
        </Typography.Paragraph>
      )}
      <Panel title="Add alert rule">
        <AlertForm value={form} onChange={setForm} onSubmit={() => void submitAdd()} submitLabel="Add alert rule" busy={adding.isLoading} disabled={atLimit} webhooks={serverWebhooks} options={options.data} error={addError} />
      </Panel>
      {list.isError ? (
        <Alert type="error" title={errorText(list.error, ALERTS_SCREEN_TEXT.failed)} showIcon />
      ) : !list.data ? (
        <div>
          <Spin /> <span>{ALERTS_SCREEN_TEXT.loading}</span>
        </div>
      ) : list.data.alerts.length === 0 ? (
        <Empty description={ALERTS_SCREEN_TEXT.empty} />
      ) : (
        <ul className="webhook-list" aria-label="Alert rules">
          {list.data.alerts.map((rule) => (
            <AlertRow
              key={rule.id}
              rule={rule}
              mode={modeOf(rule.id)}
              webhooks={serverWebhooks}
              options={options.data}
              busy={{ saving: updating.isLoading, deleting: removing.isLoading, testing: testing === rule.id }}
              onMode={(mode) => setMode(rule.id, mode)}
              onSave={() => void save(rule.id)}
              onDelete={() => void del(rule.id)}
              onTest={() => void sendTest(rule.id)}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
