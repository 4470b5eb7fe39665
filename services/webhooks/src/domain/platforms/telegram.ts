/**
 * Telegram Bot API sendMessage (the URL is https://api.telegram.org/bot<token>/sendMessage): HTML parse
 * mode with &, < and > escaped (the only characters Telegram's HTML mode needs escaped), link previews
 * off, and logs packed into messages within Telegram's 4096-character text limit. chat_id is added at send
 * time (platforms/index.ts withDestination).
 */
import type { PlatformFormat, WebhookLog } from './types.ts';
import { LEVEL_LABEL, metadataLine, packByWeight, truncate } from './types.ts';

export const TELEGRAM_MAX_TEXT = 4096;
const MESSAGE_MAX = 1200;
const MAX_LOGS = 10;

export function escapeTelegramHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function block(log: WebhookLog): string {
  const meta = metadataLine(log.metadata, 200);
  return [
    `<b>${escapeTelegramHtml(`[${LEVEL_LABEL(log.level)}] ${log.type}`)}</b> via ${escapeTelegramHtml(log.resource || '-')}`,
    escapeTelegramHtml(truncate(log.message, MESSAGE_MAX)),
    ...(meta ? [`<code>${escapeTelegramHtml(meta)}</code>`] : []),
  ].join('\n');
}

/** Room kept for the header line and the footer. */
const FRAME = 300;

export const telegramFormat: PlatformFormat = {
  pack: (logs) => packByWeight(logs, MAX_LOGS, TELEGRAM_MAX_TEXT - FRAME, (log) => block(log).length + 2),
  build(logs, context) {
    const header = `<b>${escapeTelegramHtml(`Skald · ${truncate(context.serverName, 100)}`)}</b>`;
    const footer = `<i>${escapeTelegramHtml(context.deliveryId)}</i>`;
    return { text: [header, ...logs.map(block), footer].join('\n\n'), parse_mode: 'HTML', disable_web_page_preview: true };
  },
};
