import { Alert, Empty, Spin } from 'antd';
import { useAlertHistoryQuery } from './alertsApi.ts';

export const HISTORY_TEXT = {
  loading: 'Loading history...',
  failed: 'Failed to load the history.',
  empty: 'This rule has not fired yet.',
} as const;

/** A rule's transitions, newest first: when it fired or resolved, the count, and the sample logs. */
export function AlertHistory({ ruleId }: { ruleId: string }) {
  const history = useAlertHistoryQuery(ruleId);
  if (history.isError) return <Alert type="error" title={HISTORY_TEXT.failed} showIcon />;
  if (!history.data)
    return (
      <div>
        <Spin /> <span>{HISTORY_TEXT.loading}</span>
      </div>
    );
  if (history.data.events.length === 0) return <Empty description={HISTORY_TEXT.empty} />;
  return (
    <ol className="alert-history" aria-label="History">
      {history.data.events.map((event) => (
        <li key={`${event.at}-${event.state}`} data-testid="alert-event">
          <strong>{event.state === 'firing' ? 'Fired' : 'Resolved'}</strong> <time dateTime={event.at}>{new Date(event.at).toLocaleString()}</time>
          {event.state === 'firing' && <span className="muted"> · count {event.count}</span>}
          {event.sample.length > 0 && (
            <ul className="alert-sample">
              {event.sample.map((log) => (
                <li key={log.id}>
                  <code>{log.level}</code> {log.type} · {log.message}
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}
