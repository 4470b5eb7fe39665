import { createHash } from 'node:crypto';

/**
 * A stable id for a group of logs of one webhook, derived from the webhook and the group's first log:
 * the delivery id receivers dedupe on (webhook-id header, PagerDuty dedup_key) and the pending document id,
 * the same however often the same logs are handed out again. `msg_` + 32 hex characters.
 */
export function deliveryIdOf(webhookId: string, firstLogId: string): string {
  return `msg_${createHash('sha256').update(`${webhookId}:${firstLogId}`).digest('hex').slice(0, 32)}`;
}
