/**
 * Discord-webhook-shaped messages (`POST /discord/{key}/{anything}`), as qb-log (Config.Logging =
 * 'discord') and countless scripts post them: `{ username, content, embeds: [...] }`, up to 10 embeds.
 *   - each embed is one log: title → message (description when there is no title), description and
 *     fields (`name: value`) → metadata, color → level (colorLevel below);
 *   - content alone (no embeds) is one log; beside embeds it is kept in each embed's metadata;
 *   - type: the `{anything}` path segment (the category a script gave its webhook URL, e.g. `joinleave`),
 *     unless it is a Discord webhook id (digits only), then the username, else `Discord`.
 */
import { isPlainObject } from '../log-input.ts';
import { CompatShapeError, compatLog, label } from './compat-log.ts';
import type { CompatLog } from './compat-log.ts';

const EXPECTED = 'a Discord webhook message {"content":"…"} or {"embeds":[{"title":"…","description":"…"}]}';
/** Discord's own limit per message. */
export const MAX_EMBEDS = 10;

/**
 * Colour → level. Reds (a strong red channel, green and blue both faint: qb-log's `red` 0xFF0000) are
 * errors; oranges and yellows (red strong, green medium or strong, blue faint: `orange`, `yellow`) are
 * warnings; everything else (qb-log's default crimson 0xDC143C, greens, blues, white) is info.
 */
export function colorLevel(color: unknown): 'error' | 'warn' | 'info' {
  const value = typeof color === 'string' && /^#?[0-9a-f]{6}$/i.test(color) ? Number.parseInt(color.replace('#', ''), 16) : color;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffffff) return 'info';
  const red = (value >> 16) & 0xff;
  const green = (value >> 8) & 0xff;
  const blue = value & 0xff;
  if (red >= 0x80 && green <= 0x20 && blue <= 0x20) return 'error';
  if (red >= 0xc8 && green >= 0x60 && blue <= 0x40) return 'warn';
  return 'info';
}

export function discordType(pathRest: string, username: unknown): string {
  const segment = pathRest.split('/').find((part) => part !== '') ?? '';
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // Keep the raw segment.
  }
  if (decoded !== '' && !/^\d+$/.test(decoded)) return decoded;
  return label(username) ?? 'Discord';
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function embedLog(embed: unknown, field: string, type: string, context: Record<string, unknown>): CompatLog {
  if (!isPlainObject(embed)) throw new CompatShapeError(field, 'an embed object {"title":"…","description":"…"}');
  const title = text(embed['title']);
  const description = text(embed['description']);
  const metadata: Record<string, unknown> = { ...context };
  if (title !== undefined && description !== undefined) metadata['description'] = description;
  if (Array.isArray(embed['fields'])) {
    const fields: Record<string, unknown> = {};
    for (const item of embed['fields'] as unknown[]) {
      if (isPlainObject(item) && typeof item['name'] === 'string') fields[item['name']] = item['value'] ?? null;
    }
    if (Object.keys(fields).length > 0) metadata['fields'] = fields;
  }
  const footer = isPlainObject(embed['footer']) ? text(embed['footer']['text']) : undefined;
  if (footer !== undefined) metadata['footer'] = footer;
  const author = isPlainObject(embed['author']) ? text(embed['author']['name']) : undefined;
  if (author !== undefined) metadata['author'] = author;
  const image = isPlainObject(embed['image']) ? text(embed['image']['url']) : undefined;
  if (image !== undefined) metadata['imageUrl'] = image;
  const url = text(embed['url']);
  if (url !== undefined) metadata['url'] = url;
  if (embed['color'] !== undefined) metadata['color'] = embed['color'];
  const message = title ?? description ?? (metadata['fields'] ? 'Embed' : undefined);
  if (message === undefined) throw new CompatShapeError(`${field}.title`, 'a title, a description or fields');
  return compatLog({ message, level: colorLevel(embed['color']), type, metadata });
}

/** The logs of one message; `pathRest` is what follows the key in the URL. Attachments are read by the route. */
export function parseDiscordMessage(body: unknown, pathRest: string, attachments = 0): CompatLog[] {
  if (!isPlainObject(body)) throw new CompatShapeError('body', EXPECTED);
  const type = discordType(pathRest, body['username']);
  const content = text(body['content']);
  const embeds = body['embeds'] === undefined || body['embeds'] === null ? [] : body['embeds'];
  if (!Array.isArray(embeds)) throw new CompatShapeError('embeds', 'an array of embed objects');
  if (embeds.length > MAX_EMBEDS) throw new CompatShapeError('embeds', `at most ${MAX_EMBEDS} embeds`);
  const context: Record<string, unknown> = {};
  const username = text(body['username']);
  if (username !== undefined) context['username'] = username;
  if (embeds.length > 0) {
    if (content !== undefined) context['content'] = content;
    return embeds.map((embed, i) => embedLog(embed, `embeds[${i}]`, type, context));
  }
  if (content !== undefined) return [compatLog({ message: content, type, metadata: context })];
  if (attachments > 0) return [];
  throw new CompatShapeError('body', EXPECTED);
}
