/**
 * Generic webhooks: a JSON event `{ type, timestamp, data }` (the Standard Webhooks payload shape) with up
 * to GENERIC_MAX_LOGS logs, signed the Standard Webhooks way at send time (signing.ts): headers
 * webhook-id (the delivery id, the same on every retry and replay, so receivers can dedupe),
 * webhook-timestamp and webhook-signature.
 */
import type { PlatformFormat } from './types.ts';
import { chunksOf } from './types.ts';

export const GENERIC_MAX_LOGS = 100;
export const GENERIC_EVENT_TYPE = 'logs.matched';

export const genericFormat: PlatformFormat = {
  pack: (logs) => chunksOf(logs, GENERIC_MAX_LOGS),
  build(logs, context) {
    return {
      type: GENERIC_EVENT_TYPE,
      timestamp: new Date().toISOString(),
      data: {
        delivery_id: context.deliveryId,
        webhook_id: context.webhookId,
        server_name: context.serverName,
        logs: logs.map((log) => ({
          id: log.id,
          created_at: new Date(log.createdAt).toISOString(),
          level: log.level,
          type: log.type,
          resource: log.resource,
          message: log.message,
          metadata: log.metadata,
          log_type: log.logType,
        })),
      },
    };
  },
};
