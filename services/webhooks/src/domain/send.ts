/**
 * One delivery attempt to a webhook, and what its answer means (docs/WEBHOOKS.md):
 *   2xx delivered; 429, or 503 with Retry-After: throttled (wait, not a failure); 410: gone (the webhook is
 *   disabled); any other status (3xx included: redirects are never followed) or a network error or timeout:
 *   failed (retried); a destination the outbound guard refuses: refused (never retried: it will not change).
 * Every connection goes through the service kit's outbound guard (sendOutbound), which checks the resolved
 * address at connect time. Messages name the host at most, never the URL (a credential).
 */
import type { WebhookPlatform } from '@skald/contracts';
import { OutboundFailed, OutboundRefused, sendOutbound } from '@skald/service-kit';
import type { OutboundGuard } from '@skald/service-kit';
import { withDestination } from './platforms/index.ts';
import { signingHeaders } from './signing.ts';
import { throttleDelayMs } from './retry-schedule.ts';

export type SendOutcome =
  | { readonly kind: 'delivered'; readonly statusCode: number }
  | { readonly kind: 'throttled'; readonly statusCode: number; readonly retryAfterMs: number }
  | { readonly kind: 'gone'; readonly statusCode: number; readonly error: string }
  | { readonly kind: 'failed'; readonly statusCode: number | null; readonly error: string }
  | { readonly kind: 'refused'; readonly error: string };

export interface SendTarget {
  readonly platform: WebhookPlatform;
  readonly url: string;
  readonly chatId: string | null;
  readonly secret: string | null;
}

export interface SendSettings {
  readonly connectTimeoutMs: number;
  readonly timeoutMs: number;
}

export const SEND_DEFAULTS: SendSettings = { connectTimeoutMs: 5_000, timeoutMs: 15_000 };
/** Receivers' answers are only read for Retry-After hints and error snippets. */
const MAX_RESPONSE_BYTES = 16 * 1024;
export const USER_AGENT = 'Skald-Webhooks/1';

export const GONE_REASON = 'The receiver answered 410 Gone, so the webhook was disabled. Save it again to re-enable it.';

/** A short, safe description of a non-2xx answer (the receiver's text is cut and kept on one line). */
function statusError(status: number, body: string): string {
  const snippet = body.replace(/\s+/g, ' ').trim().slice(0, 200);
  // An empty JSON body says nothing worth showing.
  const shown = snippet === '{}' || snippet === '[]' ? '' : snippet;
  return `The receiver answered HTTP ${status}${shown ? `: ${shown}` : ''}`;
}

export async function sendDelivery(
  guard: OutboundGuard,
  target: SendTarget,
  deliveryId: string,
  payload: string,
  settings: SendSettings,
  now: () => number,
): Promise<SendOutcome> {
  const body = JSON.stringify(withDestination(target.platform, JSON.parse(payload) as Record<string, unknown>, target.chatId));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    ...(target.platform === 'generic' && target.secret !== null ? signingHeaders(target.secret, deliveryId, body, now()) : {}),
  };
  try {
    const answer = await sendOutbound(guard, target.url, {
      method: 'POST',
      headers,
      body,
      connectTimeoutMs: settings.connectTimeoutMs,
      timeoutMs: settings.timeoutMs,
      maxResponseBytes: MAX_RESPONSE_BYTES,
    });
    const status = answer.status;
    if (status >= 200 && status < 300) return { kind: 'delivered', statusCode: status };
    if (status === 429 || (status === 503 && answer.headers['retry-after'] !== undefined)) {
      return { kind: 'throttled', statusCode: status, retryAfterMs: throttleDelayMs(answer.headers, answer.body, now()) };
    }
    if (status === 410) return { kind: 'gone', statusCode: status, error: statusError(status, answer.body) };
    return { kind: 'failed', statusCode: status, error: statusError(status, answer.body) };
  } catch (error) {
    if (error instanceof OutboundRefused) return { kind: 'refused', error: error.message };
    if (error instanceof OutboundFailed) return { kind: 'failed', statusCode: null, error: error.message };
    throw error;
  }
}
