import { Alert, Empty, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { errorText, statusOf } from '../../app/errors.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useToast } from '../../app/toast.tsx';
import { Panel } from '../common/Panel.tsx';
import { useServerUsageQuery } from '../servers/serversApi.ts';
import { PageTitle } from '../shell/PageTitle.tsx';
import { WebhookForm } from './WebhookForm.tsx';
import { WebhookRow, type RowMode } from './WebhookRow.tsx';
import { EMPTY_FORM, formProblem, toBody, usedLine, WEBHOOK_TEXT, type WebhookFormValues } from './webhookForm.ts';
import {
  useAddWebhookMutation,
  useClearDeadLettersMutation,
  useDeleteWebhookMutation,
  useReplayDeadLetterMutation,
  useTestWebhookMutation,
  useUpdateWebhookMutation,
  useWebhookOptionsQuery,
  useWebhooksQuery,
  WEBHOOKS_POLL_MS,
} from './webhooksApi.ts';

export const WEBHOOKS_SCREEN_TEXT = {
  noServer: 'Select a server.',
  loading: 'Loading webhooks...',
  failed: 'Failed to load webhooks.',
  empty: 'No webhooks yet.',
  secretOnce: 'Signing secret of the new generic webhook. It is shown only now: store it where your receiver verifies signatures.',
} as const;

/**
 * /webhooks (docs/spec/part-1.txt sections 2, 4, 5, 8): the add form, the list with inline edit and delete
 * confirmation, 'n / limit webhooks used', each webhook's last attempt, failed attempts, its dead-letter queue
 * with replay, and a test per webhook. A server whose limit is 0 sends the user to /dashboard.
 */
export default function WebhooksPage() {
  const { serverId, serverName } = useAppSelector((s) => s.session);
  const toast = useToast();
  const usage = useServerUsageQuery(serverId ?? '', { skip: !serverId });
  const list = useWebhooksQuery(serverId ?? '', { skip: !serverId, pollingInterval: WEBHOOKS_POLL_MS, skipPollingIfUnfocused: true });
  const options = useWebhookOptionsQuery(serverId ?? '', { skip: !serverId });
  const [add, adding] = useAddWebhookMutation();
  const [update, updating] = useUpdateWebhookMutation();
  const [remove, removing] = useDeleteWebhookMutation();
  const [test] = useTestWebhookMutation();
  const [replay] = useReplayDeadLetterMutation();
  const [clear] = useClearDeadLettersMutation();
  const [form, setForm] = useState<WebhookFormValues>(EMPTY_FORM);
  const [modes, setModes] = useState<Record<string, RowMode>>({});
  const [testing, setTesting] = useState<string | null>(null);
  const [replaying, setReplaying] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [addError, setAddError] = useState<string | null>(null);

  // A new server: nothing of the previous one's rows stays.
  useEffect(() => {
    setModes({});
    setSecret(null);
    setAddError(null);
  }, [serverId]);

  if (!serverId) {
    return (
      <div className="page">
        <PageTitle>Webhooks</PageTitle>
        <Empty description={WEBHOOKS_SCREEN_TEXT.noServer} />
      </div>
    );
  }
  const limit = list.data?.limit ?? usage.data?.maxWebhooks;
  if (limit === 0) return <Navigate to="/dashboard" replace />;
  // A member with the user role is refused by the server: Webhooks belong to owner and admin (docs/spec/part-1.txt section 6).
  if (statusOf(list.error) === 403) return <Navigate to="/dashboard" replace />;

  const setMode = (id: string, mode: RowMode) => setModes((m) => ({ ...m, [id]: mode }));
  const modeOf = (id: string): RowMode => modes[id] ?? { kind: 'normal' };
  const count = list.data?.count ?? 0;
  const atLimit = limit !== undefined && count >= limit;

  const submitAdd = async () => {
    const problem = formProblem(form);
    if (problem === 'missing-url') return;
    // docs/spec/part-1.txt section 8: the chat_id message shows as a success-style toast when adding.
    if (problem === 'telegram-chat-id') return toast.success(WEBHOOK_TEXT.telegramChatId);
    setAddError(null);
    try {
      const saved = await add({ serverId, ...toBody(form) }).unwrap();
      setForm(EMPTY_FORM);
      setSecret(saved.secret);
      toast.success(WEBHOOK_TEXT.added);
    } catch (err) {
      toast.error(WEBHOOK_TEXT.addFailed);
      // The toast is the spec's; the reason (a refused URL, an internal address) shows in the form.
      setAddError(errorText(err, '') || null);
    }
  };

  const save = async (id: string) => {
    const mode = modeOf(id);
    if (mode.kind !== 'editing') return;
    const problem = formProblem(mode.values);
    if (problem === 'missing-url') return;
    if (problem === 'telegram-chat-id') return toast.error(WEBHOOK_TEXT.telegramChatId);
    try {
      const saved = await update({ serverId, id, body: toBody(mode.values) }).unwrap();
      if (saved.secret) setSecret(saved.secret);
      setMode(id, { kind: 'normal' });
      toast.success(WEBHOOK_TEXT.updated);
    } catch (err) {
      toast.error(WEBHOOK_TEXT.updateFailed);
      const reason = errorText(err, '');
      setMode(id, { kind: 'editing', values: mode.values, ...(reason ? { error: reason } : {}) });
    }
  };

  const del = async (id: string) => {
    try {
      await remove({ serverId, id }).unwrap();
      toast.success(WEBHOOK_TEXT.deleted);
    } catch {
      toast.error(WEBHOOK_TEXT.deleteFailed);
    }
  };

  const sendTest = async (id: string) => {
    setTesting(id);
    try {
      await test({ serverId, id }).unwrap();
      toast.success(WEBHOOK_TEXT.testSent);
    } catch {
      toast.error(WEBHOOK_TEXT.testFailed);
    } finally {
      setTesting(null);
    }
  };

  const sendReplay = async (id: string, deadLetterId: string) => {
    setReplaying(deadLetterId);
    try {
      await replay({ serverId, id, deadLetterId }).unwrap();
      toast.success(WEBHOOK_TEXT.replaySent);
    } catch {
      toast.error(WEBHOOK_TEXT.replayFailed);
    } finally {
      setReplaying(null);
    }
  };

  return (
    <div className="page">
      <PageTitle>Webhooks – {serverName}</PageTitle>
      {limit !== undefined && (
        <Typography.Paragraph className="count-line" data-testid="webhooks-used">
          {usedLine(count, limit)}
        </Typography.Paragraph>
      )}
      {secret && (
        <Alert type="info" showIcon closable={{ 'aria-label': 'Close', onClose: () => setSecret(null) }} title={WEBHOOKS_SCREEN_TEXT.secretOnce} description={<code data-testid="signing-secret">{secret}</code>} />
      )}
      <Panel title="Add webhook">
        <WebhookForm value={form} onChange={setForm} onSubmit={() => void submitAdd()} submitLabel="Add webhook" busy={adding.isLoading} disabled={atLimit} options={options.data} error={addError} />
      </Panel>
      {list.isError ? (
        <Alert type="error" title={WEBHOOKS_SCREEN_TEXT.failed} showIcon />
      ) : !list.data ? (
        <div>
          <Spin /> <span>{WEBHOOKS_SCREEN_TEXT.loading}</span>
        </div>
      ) : list.data.webhooks.length === 0 ? (
        <Empty description={WEBHOOKS_SCREEN_TEXT.empty} />
      ) : (
        <ul className="webhook-list" aria-label="Webhooks">
          {list.data.webhooks.map((webhook) => (
            <WebhookRow
              key={webhook.id}
              webhook={webhook}
              mode={modeOf(webhook.id)}
              options={options.data}
              busy={{ saving: updating.isLoading, deleting: removing.isLoading, testing: testing === webhook.id, replaying }}
              onMode={(mode) => setMode(webhook.id, mode)}
              onEdit={(values) => setMode(webhook.id, { kind: 'editing', values })}
              onSave={() => void save(webhook.id)}
              onDelete={() => void del(webhook.id)}
              onTest={() => void sendTest(webhook.id)}
              onReplay={(deadLetterId) => void sendReplay(webhook.id, deadLetterId)}
              onClearDeadLetters={() => void clear({ serverId, id: webhook.id })}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
