/**
 * Discord incoming webhooks: one message carries up to 10 embeds, each coloured by its log's level,
 * within Discord's limits (title 256, description 4096, field value 1024, footer 2048, and 6000 characters
 * over all embeds of a message). Mentions are switched off (`allowed_mentions.parse: []`): a log line
 * holding "@everyone" must not ping a whole community.
 */
import type { PlatformFormat, WebhookLog } from './types.ts';
import { LEVEL_LABEL, metadataLine, packByWeight, truncate } from './types.ts';

export const DISCORD_MAX_EMBEDS = 10;
export const DISCORD_MAX_EMBED_CHARS = 6000;

export const DISCORD_LEVEL_COLORS: Readonly<Record<string, number>> = {
  debug: 0x6b7280,
  info: 0x3b82f6,
  warn: 0xf59e0b,
  error: 0xef4444,
  fatal: 0x7f1d1d,
};

const TITLE_MAX = 200;
const DESCRIPTION_MAX = 1500;
const FIELD_MAX = 200;
const FOOTER_MAX = 120;

function title(log: WebhookLog): string {
  return truncate(`${LEVEL_LABEL(log.level)} · ${log.type}`, TITLE_MAX);
}

function description(log: WebhookLog): string {
  return truncate(log.message === '' ? '(empty message)' : log.message, DESCRIPTION_MAX);
}

/** Upper bound of one embed's counted characters (footer and field names included). */
function weight(log: WebhookLog): number {
  const meta = metadataLine(log.metadata, FIELD_MAX);
  return title(log).length + description(log).length + 'Resource'.length + Math.min(FIELD_MAX, log.resource.length) + (meta ? 8 + meta.length : 0) + FOOTER_MAX;
}

export const discordFormat: PlatformFormat = {
  pack: (logs) => packByWeight(logs, DISCORD_MAX_EMBEDS, DISCORD_MAX_EMBED_CHARS, weight),
  build(logs, context) {
    const footer = truncate(`Skald · ${context.serverName} · ${context.deliveryId}`, FOOTER_MAX);
    return {
      username: 'Skald',
      allowed_mentions: { parse: [] },
      embeds: logs.map((log) => {
        const meta = metadataLine(log.metadata, FIELD_MAX);
        return {
          title: title(log),
          description: description(log),
          color: DISCORD_LEVEL_COLORS[log.level] ?? DISCORD_LEVEL_COLORS['info'],
          timestamp: new Date(log.createdAt).toISOString(),
          fields: [
            { name: 'Resource', value: truncate(log.resource || '-', FIELD_MAX), inline: true },
            ...(meta ? [{ name: 'Metadata', value: meta, inline: false }] : []),
          ],
          footer: { text: footer },
        };
      }),
    };
  },
};
