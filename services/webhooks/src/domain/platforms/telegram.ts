/**
 * Telegram Bot API sendMessage (the URL is https://api.telegram.org/bot<token>/sendMessage): HTML parse
 * mode with &, < and > escaped (the only characters Telegram's HTML mode needs escaped), link previews
 * off, and logs packed into messages within Telegram's 4096-character text limit. chat_id is added at send
 * time (platforms/index.ts withDestination).
 */
import type { PlatformFormat, WebhookLog } from './types.ts';
import { LEVEL_LABEL, metadataLine, packByWeight, truncate } from './types.ts';

export const TELEGRAM_MAX_TEXT = 4096;
/** Escaped characters per part; a single log's block stays far below the message limit. */
const MESSAGE_MAX = 2400;
const MAX_LOGS = 10;

export function escapeTelegramHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes and cuts so that the ESCAPED text is at most `max` characters (never inside an entity). */
export function escapedWithin(text: string, max: number): string {
  let out = '';
  for (const char of text) {
    const piece = escapeTelegramHtml(char);
    if (out.length + piece.length > max - 1) return `${out}…`;
    out += piece;
  }
  return out;
}

function block(log: WebhookLog): string {
  const meta = metadataLine(log.metadata, 200);
  return [
    `<b>${escapedWithin(`[${LEVEL_LABEL(log.level)}] ${log.type}`, 300)}</b> via ${escapedWithin(log.resource || '-', 200)}`,
    escapedWithin(log.message, MESSAGE_MAX),
    ...(meta ? [`<code>${escapedWithin(meta, 400)}</code>`] : []),
  ].join('\n');
}

/** Room kept for the header line and the footer. */
const FRAME = 300;

export const telegramFormat: PlatformFormat = {
  pack: (logs) => packByWeight(logs, MAX_LOGS, TELEGRAM_MAX_TEXT - FRAME, (log) => block(log).length + 2),
  build(logs, context) {
    const header = `<b>${escapedWithin(`Skald · ${truncate(context.serverName, 100)}`, 200)}</b>`;
    const footer = `<i>${escapeTelegramHtml(context.deliveryId)}</i>`;
    return { text: [header, ...logs.map(block), footer].join('\n\n'), parse_mode: 'HTML', disable_web_page_preview: true };
  },
};
