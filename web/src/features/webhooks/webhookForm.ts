/**
 * The webhook form's rules and the list's texts, kept out of the components and tested on their own
 * (docs/spec/part-1.txt sections 3, 5, 8): empty filters are sent as null (= all); the URL is required; telegram needs a
 * chat_id; URLs are shown masked (a webhook URL is a credential) except inside the edit form.
 */
import type { ApiWebhook, UpdateWebhookBody, WebhookPlatform } from '@skald/contracts/api';

/** docs/spec/part-1.txt section 5, in its order (the web takes only types from the contracts, so the list is repeated here). */
export const PLATFORMS: readonly WebhookPlatform[] = ['discord', 'slack', 'telegram', 'teams', 'mattermost', 'rocketchat', 'googlechat', 'pagerduty', 'generic'];

export const PLATFORM_LABELS: Readonly<Record<WebhookPlatform, string>> = {
  discord: 'Discord',
  slack: 'Slack',
  telegram: 'Telegram',
  teams: 'Microsoft Teams',
  mattermost: 'Mattermost',
  rocketchat: 'Rocket.Chat',
  googlechat: 'Google Chat',
  pagerduty: 'PagerDuty',
  generic: 'Generic (signed JSON)',
};

// docs/spec/part-1.txt sections 8 and 5, as written.
export const WEBHOOK_TEXT = {
  added: 'Webhook added ✅',
  addFailed: 'Failed to add webhook ❌',
  testSent: 'Test sent 🚀',
  testFailed: 'Webhook test failed ❌',
  replaySent: 'Replay sent ✅',
  replayFailed: 'Replay failed ❌',
  updated: 'Webhook updated ✅',
  updateFailed: 'Update failed ❌',
  deleted: 'Webhook deleted ✅',
  deleteFailed: 'Failed to delete ❌',
  telegramChatId: 'Telegram requires a chat_id.',
} as const;

export interface WebhookFormValues {
  url: string;
  platform: WebhookPlatform;
  chat_id: string;
  event_type: string;
  log_level: string;
  resource: string;
}

export const EMPTY_FORM: WebhookFormValues = { url: '', platform: 'discord', chat_id: '', event_type: '', log_level: '', resource: '' };

/** Platforms whose chat_id field is shown (Telegram's chat, PagerDuty's routing key). */
export function usesChatId(platform: WebhookPlatform): boolean {
  return platform === 'telegram' || platform === 'pagerduty';
}

export function chatIdLabel(platform: WebhookPlatform): string {
  return platform === 'pagerduty' ? 'Routing key' : 'Chat ID';
}

const orNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());

export function toBody(values: WebhookFormValues): UpdateWebhookBody {
  return {
    url: values.url.trim(),
    platform: values.platform,
    chat_id: usesChatId(values.platform) ? orNull(values.chat_id) : null,
    event_type: orNull(values.event_type),
    log_level: orNull(values.log_level),
    resource: orNull(values.resource),
  };
}

export function fromWebhook(webhook: ApiWebhook): WebhookFormValues {
  return {
    url: webhook.url,
    platform: webhook.platform,
    chat_id: webhook.chat_id ?? '',
    event_type: webhook.event_type ?? '',
    log_level: webhook.log_level ?? '',
    resource: webhook.resource ?? '',
  };
}

/** 'missing-url' (nothing is sent), 'telegram-chat-id' (the spec's message), or null when it may be sent. */
export function formProblem(values: WebhookFormValues): 'missing-url' | 'telegram-chat-id' | null {
  if (values.url.trim() === '') return 'missing-url';
  if (values.platform === 'telegram' && values.chat_id.trim() === '') return 'telegram-chat-id';
  return null;
}

/** scheme://host/… with the path hidden: the path and query of a webhook URL are its secret. */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const hidden = parsed.pathname.length > 1 || parsed.search !== '' ? '/••••' : '';
    return `${parsed.protocol}//${parsed.host}${hidden}`;
  } catch {
    return '••••';
  }
}

/** docs/spec/part-1.txt section 2: last attempt is success, or failed with the status code or 'no response'. */
export function lastAttemptText(webhook: Pick<ApiWebhook, 'last_attempt_time' | 'last_success' | 'last_status_code'>): string {
  if (webhook.last_attempt_time === null) return 'Never';
  if (webhook.last_success) return 'Success';
  return `Failed (${webhook.last_status_code === null ? 'no response' : webhook.last_status_code})`;
}

/** 'n / limit webhooks used' (docs/spec/part-1.txt section 2). */
export function usedLine(count: number, limit: number): string {
  return `${count} / ${limit} webhooks used`;
}

export function filterText(value: string | null): string {
  return value ?? 'All';
}
