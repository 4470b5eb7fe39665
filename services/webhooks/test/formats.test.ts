/**
 * Platform limits and escaping, the retry schedule and Retry-After reading, and the signature (unit level).
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { discordFormat, DISCORD_MAX_EMBED_CHARS } from '../src/domain/platforms/discord.ts';
import { telegramFormat, TELEGRAM_MAX_TEXT } from '../src/domain/platforms/telegram.ts';
import { escapeSlack } from '../src/domain/platforms/chat.ts';
import { withDestination } from '../src/domain/platforms/index.ts';
import type { WebhookLog } from '../src/domain/platforms/index.ts';
import { DEFAULT_THROTTLE_DELAY_MS, MAX_THROTTLE_DELAY_MS, RETRY_MAX_DELAY_MS, retryDelayMs, throttleDelayMs } from '../src/domain/retry-schedule.ts';
import { generateSigningSecret, signingHeaders } from '../src/domain/signing.ts';
import { matches } from '../src/domain/matching.ts';

const context = { deliveryId: 'msg_1', serverName: 'S', webhookId: 'w' };
const log = (message: string, overrides: Partial<WebhookLog> = {}): WebhookLog => ({
  id: `l-${message.length}-${Math.random()}`,
  createdAt: 0,
  level: 'warn',
  type: 'T'.repeat(300),
  resource: 'R'.repeat(300),
  message,
  metadata: { key: 'v'.repeat(2000) },
  logType: 'text',
  ...overrides,
});

/** Discord counts title, description, field names and values, footer text. */
function embedChars(body: Record<string, unknown>): number {
  const embeds = body['embeds'] as { title: string; description: string; fields: { name: string; value: string }[]; footer: { text: string } }[];
  return embeds.reduce((sum, e) => sum + e.title.length + e.description.length + e.footer.text.length + e.fields.reduce((s, f) => s + f.name.length + f.value.length, 0), 0);
}

describe('platform limits', () => {
  it("keeps every Discord message within 10 embeds and 6000 characters, however long the logs", () => {
    const logs = Array.from({ length: 37 }, (_, i) => log('x'.repeat(500 * (i % 9))));
    const groups = discordFormat.pack(logs);
    expect(groups.flat()).toHaveLength(37);
    for (const group of groups) {
      const body = discordFormat.build(group, context);
      expect((body['embeds'] as unknown[]).length).toBeLessThanOrEqual(10);
      expect(embedChars(body)).toBeLessThanOrEqual(DISCORD_MAX_EMBED_CHARS);
      for (const embed of body['embeds'] as { title: string; description: string }[]) {
        expect(embed.title.length).toBeLessThanOrEqual(256);
        expect(embed.description.length).toBeLessThanOrEqual(4096);
      }
    }
  });

  it('keeps every Telegram text within 4096 characters and escapes HTML', () => {
    const logs = Array.from({ length: 30 }, () => log('<b>&'.repeat(700)));
    for (const group of telegramFormat.pack(logs)) {
      const text = telegramFormat.build(group, context)['text'] as string;
      expect(text.length).toBeLessThanOrEqual(TELEGRAM_MAX_TEXT);
      expect(text).not.toContain('<b>&');
    }
  });

  it('escapes Slack control characters and adds destinations only at send time', () => {
    expect(escapeSlack('<!channel> & <@U1>')).toBe('&lt;!channel&gt; &amp; &lt;@U1&gt;');
    expect(withDestination('telegram', { text: 'x' }, '42')).toEqual({ chat_id: '42', text: 'x' });
    expect(withDestination('pagerduty', { event_action: 'trigger' }, 'RK')).toEqual({ routing_key: 'RK', event_action: 'trigger' });
    expect(withDestination('discord', { content: 'x' }, 'ignored')).toEqual({ content: 'x' });
  });
});

describe('matching', () => {
  it('compares type, level and resource case-insensitively; null matches all', () => {
    const l = { type: 'Kill', level: 'error' as const, resource: 'PvP' };
    expect(matches({ eventType: null, logLevel: null, resource: null }, l)).toBe(true);
    expect(matches({ eventType: 'KILL', logLevel: 'Error', resource: 'pvp' }, l)).toBe(true);
    expect(matches({ eventType: 'Kill', logLevel: 'warn', resource: null }, l)).toBe(false);
    expect(matches({ eventType: null, logLevel: null, resource: 'shop' }, l)).toBe(false);
  });
});

describe('retry schedule', () => {
  it('grows x4 from the base with ±20 % jitter, capped at one hour', () => {
    expect(retryDelayMs(5000, 1, () => 0.5)).toBe(5000);
    expect(retryDelayMs(5000, 2, () => 0.5)).toBe(20_000);
    expect(retryDelayMs(5000, 3, () => 0.5)).toBe(80_000);
    expect(retryDelayMs(5000, 1, () => 0)).toBe(4000);
    expect(retryDelayMs(5000, 1, () => 0.999999)).toBe(6000);
    expect(retryDelayMs(5000, 20, () => 0.5)).toBe(RETRY_MAX_DELAY_MS);
  });

  it('reads Retry-After as seconds or a date, else Discord retry_after, bounded', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(throttleDelayMs({ 'retry-after': '3' }, '', now)).toBe(3000);
    expect(throttleDelayMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }, '', now)).toBe(10_000);
    expect(throttleDelayMs({}, '{"retry_after":0.25,"global":false}', now)).toBe(250);
    expect(throttleDelayMs({}, 'not json', now)).toBe(DEFAULT_THROTTLE_DELAY_MS);
    expect(throttleDelayMs({ 'retry-after': '999999' }, '', now)).toBe(MAX_THROTTLE_DELAY_MS);
    expect(throttleDelayMs({ 'retry-after': '-5' }, '', now)).toBe(0);
  });
});

describe('Standard Webhooks signature', () => {
  it('signs id.timestamp.body with the decoded secret; any changed byte changes it', () => {
    const secret = generateSigningSecret();
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    const headers = signingHeaders(secret, 'msg_abc', '{"a":1}', 1_700_000_000_123);
    expect(headers['webhook-timestamp']).toBe('1700000000');
    const expected = createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update('msg_abc.1700000000.{"a":1}').digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
    expect(signingHeaders(secret, 'msg_abc', '{"a":2}', 1_700_000_000_123)['webhook-signature']).not.toBe(headers['webhook-signature']);
    expect(signingHeaders(secret, 'msg_abd', '{"a":1}', 1_700_000_000_123)['webhook-signature']).not.toBe(headers['webhook-signature']);
  });
});
