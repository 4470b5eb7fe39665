import type { ServerUsage } from '@skald/contracts/api';
import { errorText } from '../../app/errors.ts';
import { useServerUsageQuery, USAGE_POLL_MS } from '../servers/serversApi.ts';
import { isSuspendedError, SUSPENDED_TEXT, usageView } from './navigation.ts';

const BAR_COLORS = { blue: '#1677ff', yellow: '#faad14', red: '#ff4d4f' } as const;

/** The end of the hourly quota window (an ISO time) as the user's local hour and minute. */
function formatReset(reset: string): string {
  return new Date(reset).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

export function UsageView({ usage }: { usage: ServerUsage }) {
  const view = usageView(usage.used, usage.limit);
  const reset = formatReset(usage.reset);
  return (
    <div className="usage" data-testid="usage">
      <div className="usage-line">
        <strong>Usage</strong>
        <span className="muted">{usage.tierLabel}</span>
      </div>
      {/* A plain bar keeps the always-loaded shell small. */}
      <div className="usage-track" role="progressbar" aria-label="Log usage" aria-valuemin={0} aria-valuemax={100} aria-valuenow={view.percent}>
        <div className="usage-fill" data-color={view.color} style={{ width: `${view.percent}%`, background: BAR_COLORS[view.color] }} />
      </div>
      <span className="usage-text muted">
        {view.shownUsed} / {usage.limit} logs ({view.percent}%)
      </span>
      <span className="usage-text muted">Resets at {reset}</span>
    </div>
  );
}

export function UsageBar({ serverId }: { serverId: string }) {
  const { data, error, isLoading } = useServerUsageQuery(serverId, { pollingInterval: USAGE_POLL_MS });
  if (error && isSuspendedError(errorText(error, ''))) {
    return (
      <div className="usage suspended" role="alert">
        {SUSPENDED_TEXT}
      </div>
    );
  }
  if (isLoading || !data) return null;
  return <UsageView usage={data} />;
}
