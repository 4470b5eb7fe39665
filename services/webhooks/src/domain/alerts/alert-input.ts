/**
 * From a create or edit body to a rule's settings, refusing (400, a sentence a person reads) what the
 * schema cannot say: a threshold rule without a threshold, a window outside ALERT_MIN_WINDOW_SECONDS to
 * 86,400 s, a level that is not one of the five, a webhook that is not one of this server's. Empty filter
 * fields mean "any". The tier's limit (403) is checked by the route, like webhooks'.
 */
import { ALERT_LIMITS, ALERT_THRESHOLD_REQUIRED, ALERT_UNKNOWN_WEBHOOK, LOG_LEVELS, alertWindowOutOfRange, tierOf } from '@skald/contracts';
import type { AlertFilter, UpdateAlertBody } from '@skald/contracts';
import { HttpError } from '@skald/service-kit';
import type { ServerDirectory } from '../limits.ts';
import type { WebhookStore } from '../webhook-store.ts';
import type { AlertSettings } from './alert-store.ts';

export const ALERT_LEVEL_INVALID = `The level must be one of ${LOG_LEVELS.join(', ')}.`;
export const ALERT_TOO_MANY_METADATA = `A filter may name at most ${ALERT_LIMITS.maxMetadataKeys} metadata keys.`;

function cleanFilter(filter: AlertFilter): AlertFilter {
  const out: { -readonly [K in keyof AlertFilter]: AlertFilter[K] } = {};
  for (const key of ['level', 'type', 'resource', 'search'] as const) {
    const value = filter[key]?.trim();
    if (value) out[key] = key === 'level' ? value.toLowerCase() : value;
  }
  const metadata = Object.entries(filter.metadata ?? {});
  if (metadata.length > ALERT_LIMITS.maxMetadataKeys) throw new HttpError(400, ALERT_TOO_MANY_METADATA);
  if (metadata.length > 0) out.metadata = Object.fromEntries(metadata.map(([k, v]) => [k.trim(), v]));
  if (out.level !== undefined && !(LOG_LEVELS as readonly string[]).includes(out.level)) throw new HttpError(400, ALERT_LEVEL_INVALID);
  return out;
}

export async function alertSettingsFrom(
  body: UpdateAlertBody,
  context: { readonly serverId: string; readonly minWindowSeconds: number; readonly webhooks: Pick<WebhookStore, 'byId'> },
): Promise<AlertSettings> {
  const name = body.name.trim();
  if (name === '') throw new HttpError(400, 'The name must not be empty.');
  if (body.windowSeconds < context.minWindowSeconds || body.windowSeconds > ALERT_LIMITS.maxWindowSeconds) {
    throw new HttpError(400, alertWindowOutOfRange(context.minWindowSeconds, ALERT_LIMITS.maxWindowSeconds));
  }
  const threshold = body.kind === 'threshold' ? (body.threshold ?? null) : null;
  if (body.kind === 'threshold' && threshold === null) throw new HttpError(400, ALERT_THRESHOLD_REQUIRED);
  const webhookIds = [...new Set(body.webhookIds)];
  for (const id of webhookIds) {
    const webhook = await context.webhooks.byId(id);
    if (webhook === null || webhook.serverId !== context.serverId) throw new HttpError(400, ALERT_UNKNOWN_WEBHOOK);
  }
  return { name, kind: body.kind, filter: cleanFilter(body.filter), threshold, windowSeconds: body.windowSeconds, webhookIds, cooldownSeconds: body.cooldownSeconds ?? 0, enabled: body.enabled };
}

export async function alertLimitOf(directory: Pick<ServerDirectory, 'server'>, serverId: string): Promise<number> {
  const server = await directory.server(serverId);
  return tierOf(server?.tier ?? 'free').maxAlertRules;
}
