/**
 * A create or edit body turned into settings, or a 400 with the reason (docs/spec/part-1.txt section 5): http(s) URL
 * without user info, Telegram needs a chat_id (the spec's text), PagerDuty its routing key in chat_id,
 * other platforms keep none; empty filters are null (= all). The destination must pass the outbound
 * guard NOW (a private, loopback or metadata address is refused at save), and is checked again at every
 * send, when the name may resolve elsewhere.
 */
import { PAGERDUTY_ROUTING_KEY_REQUIRED, TELEGRAM_CHAT_ID_REQUIRED } from '@skald/contracts';
import type { UpdateWebhookBody } from '@skald/contracts';
import { HttpError, OutboundFailed, OutboundRefused, parseOutboundUrl } from '@skald/service-kit';
import type { OutboundGuard } from '@skald/service-kit';
import type { WebhookSettings } from './webhook-store.ts';

export const URL_HAS_CREDENTIALS = 'The URL must not contain a user name or password.';
export const URL_UNRESOLVABLE = 'The URL\'s host could not be resolved.';

function optional(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

export function settingsFromBody(body: UpdateWebhookBody): WebhookSettings {
  const url = body.url.trim();
  let parsed: URL;
  try {
    parsed = parseOutboundUrl(url);
  } catch (error) {
    if (error instanceof OutboundRefused) throw new HttpError(400, error.message);
    throw error;
  }
  if (parsed.username !== '' || parsed.password !== '') throw new HttpError(400, URL_HAS_CREDENTIALS);
  const chatId = optional(body.chat_id);
  if (body.platform === 'telegram' && chatId === null) throw new HttpError(400, TELEGRAM_CHAT_ID_REQUIRED);
  if (body.platform === 'pagerduty' && chatId === null) throw new HttpError(400, PAGERDUTY_ROUTING_KEY_REQUIRED);
  return {
    platform: body.platform,
    url,
    chatId: body.platform === 'telegram' || body.platform === 'pagerduty' ? chatId : null,
    eventType: optional(body.event_type),
    logLevel: optional(body.log_level),
    resource: optional(body.resource),
  };
}

/** Refuses (400) a destination the outbound guard would not connect to. */
export async function assertDestinationAllowed(guard: OutboundGuard, url: string): Promise<void> {
  try {
    await guard.resolve(new URL(url).hostname);
  } catch (error) {
    if (error instanceof OutboundRefused) throw new HttpError(400, error.message);
    if (error instanceof OutboundFailed) throw new HttpError(400, URL_UNRESOLVABLE);
    throw error;
  }
}
