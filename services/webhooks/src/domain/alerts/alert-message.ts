/**
 * The one message a rule's transition sends to each of its webhooks, in the webhook's platform format:
 * the rule's name, the count (threshold) or the silence (absence), the window, the filter, up to five
 * sample logs and a link to the logs screen with the filter applied.
 *  - generic: its own event type (`alert.firing`, `alert.resolved`) with the facts as fields;
 *  - pagerduty: trigger on firing and resolve on resolving, under one dedup_key per firing, so PagerDuty
 *    closes the incident it opened;
 *  - the chat platforms: the summary as the first entry (coloured as an error when firing), then the
 *    sample logs, through the platform's own builder and limits (one message: what does not fit is left out).
 */
import { ALERT_LIMITS } from '@skald/contracts';
import type { AlertFilter, WebhookPlatform } from '@skald/contracts';
import { PLATFORM_FORMATS } from '../platforms/index.ts';
import type { WebhookLog } from '../platforms/index.ts';
import { truncate } from '../platforms/types.ts';
import { describeFilter } from './alert-filter.ts';
import type { AlertRule } from './alert-store.ts';

export interface AlertNotice {
  readonly rule: Pick<AlertRule, 'id' | 'name' | 'kind' | 'threshold' | 'windowSeconds' | 'filter' | 'serverId' | 'fires'>;
  readonly state: 'firing' | 'resolved';
  /** Matching logs in the window (threshold), or seconds of silence (absence). */
  readonly count: number;
  readonly sample: readonly WebhookLog[];
  readonly at: number;
  readonly serverName: string;
  readonly publicUrl: string;
}

/** "90 s", "5 min", "2 h 30 min". */
export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

export function alertSummary(notice: AlertNotice): string {
  const { rule, state, count } = notice;
  const window = duration(rule.windowSeconds);
  if (rule.kind === 'threshold') {
    return state === 'firing'
      ? `${rule.name}: ${count} matching log${count === 1 ? '' : 's'} in the last ${window} (threshold ${rule.threshold ?? 0})`
      : `${rule.name} resolved: ${count} matching log${count === 1 ? '' : 's'} in the last ${window}, under the threshold of ${rule.threshold ?? 0}`;
  }
  return state === 'firing'
    ? `${rule.name}: no matching log for ${duration(count)} (window ${window})`
    : `${rule.name} resolved: a matching log arrived after ${duration(count)} of silence`;
}

/** The logs screen of the server with the rule's filter applied. */
export function logsLink(publicUrl: string, serverId: string, filter: AlertFilter): string {
  const params = new URLSearchParams({ serverId });
  for (const key of ['level', 'type', 'resource', 'search'] as const) {
    const value = filter[key];
    if (value !== undefined) params.set(key, value);
  }
  return `${publicUrl.replace(/\/+$/, '')}/logs?${params.toString()}`;
}

/** The delivery id of one transition to one webhook (receivers dedupe on it; retries keep it). */
export function alertDeliveryId(notice: AlertNotice, webhookId: string): string {
  return `alert_${notice.rule.id}_${notice.rule.fires}_${notice.state}_${webhookId}`;
}

function headline(notice: AlertNotice, link: string): WebhookLog {
  return {
    id: `${notice.rule.id}.${notice.rule.fires}.${notice.state}`,
    createdAt: notice.at,
    level: notice.state === 'firing' ? 'error' : 'info',
    type: notice.state === 'firing' ? 'Alert firing' : 'Alert resolved',
    resource: truncate(describeFilter(notice.rule.filter), 200),
    message: `${alertSummary(notice)}\nFilter: ${describeFilter(notice.rule.filter)}\n${link}`,
    metadata: null,
    logType: 'text',
  };
}

export function buildAlertPayload(platform: WebhookPlatform, notice: AlertNotice, webhookId: string): Record<string, unknown> {
  const link = logsLink(notice.publicUrl, notice.rule.serverId, notice.rule.filter);
  const sample = notice.sample.slice(-ALERT_LIMITS.sampleSize);
  const deliveryId = alertDeliveryId(notice, webhookId);
  if (platform === 'generic') {
    return {
      type: `alert.${notice.state}`,
      timestamp: new Date(notice.at).toISOString(),
      data: {
        delivery_id: deliveryId,
        webhook_id: webhookId,
        server_name: notice.serverName,
        rule: { id: notice.rule.id, name: notice.rule.name, kind: notice.rule.kind, threshold: notice.rule.threshold, window_seconds: notice.rule.windowSeconds, filter: notice.rule.filter },
        state: notice.state,
        count: notice.count,
        summary: alertSummary(notice),
        link,
        logs: sample.map((log) => ({ id: log.id, created_at: new Date(log.createdAt).toISOString(), level: log.level, type: log.type, resource: log.resource, message: log.message, metadata: log.metadata })),
      },
    };
  }
  if (platform === 'pagerduty') {
    return {
      event_action: notice.state === 'firing' ? 'trigger' : 'resolve',
      dedup_key: `skald-alert-${notice.rule.id}-${notice.rule.fires}`,
      payload: {
        summary: truncate(alertSummary(notice), 1024),
        source: truncate(`Skald · ${notice.serverName}`, 255),
        severity: 'error',
        timestamp: new Date(notice.at).toISOString(),
        class: 'alert',
        custom_details: { filter: describeFilter(notice.rule.filter), link, logs: sample.map((log) => ({ id: log.id, level: log.level, type: log.type, message: truncate(log.message, 1000) })) },
      },
      links: [{ href: link, text: 'Logs in Skald' }],
    };
  }
  const format = PLATFORM_FORMATS[platform];
  const first = format.pack([headline(notice, link), ...sample])[0]!;
  return format.build(first, { deliveryId, serverName: notice.serverName, webhookId });
}
