/**
 * Every platform's format, and the destination fields a body only receives at send time: Telegram's
 * chat_id and PagerDuty's routing_key are credentials-like values kept sealed with the webhook, so the
 * stored payload (dead letters, the job queue) never holds them.
 */
import type { WebhookPlatform } from '@skald/contracts';
import { discordFormat } from './discord.ts';
import { googlechatFormat, mattermostFormat, rocketchatFormat, slackFormat, teamsFormat } from './chat.ts';
import { genericFormat } from './generic.ts';
import { pagerdutyFormat } from './pagerduty.ts';
import { telegramFormat } from './telegram.ts';
import type { PlatformFormat } from './types.ts';

export type { PayloadContext, PlatformFormat, WebhookLog } from './types.ts';

export const PLATFORM_FORMATS: Readonly<Record<WebhookPlatform, PlatformFormat>> = {
  discord: discordFormat,
  slack: slackFormat,
  telegram: telegramFormat,
  teams: teamsFormat,
  mattermost: mattermostFormat,
  rocketchat: rocketchatFormat,
  googlechat: googlechatFormat,
  pagerduty: pagerdutyFormat,
  generic: genericFormat,
};

/** The body to send: the stored payload plus the destination field the platform needs. */
export function withDestination(platform: WebhookPlatform, payload: Record<string, unknown>, chatId: string | null): Record<string, unknown> {
  if (platform === 'telegram') return { chat_id: chatId, ...payload };
  if (platform === 'pagerduty') return { routing_key: chatId, ...payload };
  return payload;
}
