/**
 * PagerDuty Events API v2 (POST https://events.pagerduty.com/v2/enqueue): one `trigger` event per group
 * of up to PAGERDUTY_MAX_LOGS logs, its severity the highest level in the group, its dedup_key the
 * delivery id (a redelivery or a replay updates the same incident instead of opening another). The
 * routing_key (kept in the webhook's chat_id) is added at send time.
 */
import type { PlatformFormat, WebhookLog } from './types.ts';
import { LEVEL_LABEL, chunksOf, truncate } from './types.ts';

export const PAGERDUTY_MAX_LOGS = 10;

const SEVERITY: Readonly<Record<string, { rank: number; severity: 'critical' | 'error' | 'warning' | 'info' }>> = {
  debug: { rank: 0, severity: 'info' },
  info: { rank: 1, severity: 'info' },
  warn: { rank: 2, severity: 'warning' },
  error: { rank: 3, severity: 'error' },
  fatal: { rank: 4, severity: 'critical' },
};

function worst(logs: readonly WebhookLog[]): WebhookLog {
  return logs.reduce((a, b) => ((SEVERITY[b.level]?.rank ?? 0) > (SEVERITY[a.level]?.rank ?? 0) ? b : a));
}

export const pagerdutyFormat: PlatformFormat = {
  pack: (logs) => chunksOf(logs, PAGERDUTY_MAX_LOGS),
  build(logs, context) {
    const top = worst(logs);
    const more = logs.length > 1 ? ` (+${logs.length - 1} more)` : '';
    return {
      event_action: 'trigger',
      dedup_key: context.deliveryId,
      payload: {
        summary: truncate(`[${LEVEL_LABEL(top.level)}] ${top.type}: ${top.message}${more}`, 1024),
        source: truncate(`Skald · ${context.serverName}`, 255),
        severity: SEVERITY[top.level]?.severity ?? 'info',
        timestamp: new Date(top.createdAt).toISOString(),
        component: truncate(top.resource || '-', 255),
        group: truncate(context.serverName, 255),
        class: truncate(top.type, 255),
        custom_details: {
          logs: logs.map((log) => ({ id: log.id, level: log.level, type: log.type, resource: log.resource, message: truncate(log.message, 1000), created_at: new Date(log.createdAt).toISOString() })),
        },
      },
    };
  },
};
