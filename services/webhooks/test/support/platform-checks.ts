/**
 * What each platform's receiver must get for one error log of type Kill on resource pvp with the message
 * 'boom <@everyone>' and metadata { x: 1 }: the documented incoming-webhook shape, with the log text escaped
 * or defused where the platform would read markup or mentions. Shared by the delivery test and the public-API
 * pipeline test (test/webhooks-pipeline.test.ts).
 */
import { expect } from 'vitest';
import type { ReceivedRequest } from './receiver.ts';

export type Check = (request: ReceivedRequest) => void;

export const PLATFORM_CHECKS: Record<string, { chat_id?: string; check: Check }> = {
  discord: {
    check: ({ body }) => {
      const embeds = body['embeds'] as { title: string; description: string; color: number; footer: { text: string } }[];
      expect(embeds).toHaveLength(1);
      expect(embeds[0]).toMatchObject({ title: 'ERROR · Kill', description: 'boom <@everyone>', color: 0xef4444 });
      expect(body['allowed_mentions']).toEqual({ parse: [] });
    },
  },
  slack: {
    check: ({ body }) => {
      const blocks = body['blocks'] as { type: string; text?: { type: string; text: string } }[];
      expect(blocks[0]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: '*[ERROR] Kill via pvp*\nboom &lt;@everyone&gt;' } });
      expect(typeof body['text']).toBe('string');
    },
  },
  telegram: {
    chat_id: '-100123',
    check: ({ body }) => {
      expect(body).toMatchObject({ chat_id: '-100123', parse_mode: 'HTML', disable_web_page_preview: true });
      expect(body['text']).toContain('boom &lt;@everyone&gt;');
      expect(body['text']).toContain('<b>[ERROR] Kill</b>');
    },
  },
  teams: {
    check: ({ body }) => {
      expect(body['type']).toBe('message');
      const attachment = (body['attachments'] as { contentType: string; content: { type: string; version: string; body: { text: string }[] } }[])[0]!;
      expect(attachment.contentType).toBe('application/vnd.microsoft.card.adaptive');
      expect(attachment.content).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
      expect(attachment.content.body.map((b) => b.text)).toContain('boom <@everyone>');
    },
  },
  mattermost: {
    check: ({ body }) => {
      const attachments = body['attachments'] as { title: string; text: string; color: string }[];
      expect(attachments[0]).toMatchObject({ title: '[ERROR] Kill via pvp', text: 'boom <@\u200beveryone>', color: '#ef4444' });
    },
  },
  rocketchat: {
    check: ({ body }) => {
      const attachments = body['attachments'] as { title: string; text: string }[];
      expect(attachments[0]).toMatchObject({ title: '[ERROR] Kill via pvp', text: 'boom <@\u200beveryone>' });
    },
  },
  googlechat: {
    check: ({ body }) => {
      expect(Object.keys(body)).toEqual(['text']);
      expect(body['text']).toContain('[ERROR] Kill via pvp\nboom <@\u200beveryone>');
    },
  },
  pagerduty: {
    chat_id: 'R0UT1NGKEY',
    check: ({ body }) => {
      expect(body).toMatchObject({ routing_key: 'R0UT1NGKEY', event_action: 'trigger', dedup_key: expect.stringMatching(/^msg_/) });
      expect(body['payload']).toMatchObject({ summary: '[ERROR] Kill: boom <@everyone>', severity: 'error', component: 'pvp', class: 'Kill', source: expect.stringContaining('Skald') });
    },
  },
  generic: {
    check: ({ body, headers }) => {
      expect(body).toMatchObject({ type: 'logs.matched', data: { logs: [{ level: 'error', type: 'Kill', resource: 'pvp', message: 'boom <@everyone>', metadata: { x: 1 } }] } });
      expect(headers['webhook-id']).toMatch(/^msg_/);
      expect(headers['webhook-timestamp']).toMatch(/^\d+$/);
      expect(headers['webhook-signature']).toMatch(/^v1,/);
    },
  },
};
