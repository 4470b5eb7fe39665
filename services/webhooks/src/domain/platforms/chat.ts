/**
 * Chat platforms with Slack-like incoming webhooks: Slack (Block Kit), Mattermost and Rocket.Chat
 * (Slack-compatible attachments), Google Chat (text) and Microsoft Teams (an Adaptive Card, as Teams'
 * Workflows webhooks expect). Up to CHAT_MAX_LOGS logs per message. Log text is escaped so it cannot
 * become markup or a mention: Slack's `<!channel>` needs `<`, Mattermost, Rocket.Chat and Google Chat
 * turn `@all` / `@here` into pings, which a zero-width space after `@` defuses.
 */
import type { PlatformFormat, WebhookLog } from './types.ts';
import { LEVEL_LABEL, chunksOf, metadataLine, truncate } from './types.ts';

export const CHAT_MAX_LOGS = 10;
const MESSAGE_MAX = 1500;
const META_MAX = 300;

const LEVEL_HEX: Readonly<Record<string, string>> = { debug: '#6b7280', info: '#3b82f6', warn: '#f59e0b', error: '#ef4444', fatal: '#7f1d1d' };

/** Slack's three control characters (api.slack.com "Escaping text"). */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function defuseMentions(text: string): string {
  return text.replace(/@/g, '@\u200b');
}

const headline = (log: WebhookLog) => `[${LEVEL_LABEL(log.level)}] ${log.type} via ${log.resource || '-'}`;
const summary = (logs: readonly WebhookLog[], serverName: string) =>
  logs.length === 1 ? `Skald · ${serverName}: ${LEVEL_LABEL(logs[0]!.level)} ${logs[0]!.type}` : `Skald · ${serverName}: ${logs.length} logs`;

function plainLines(log: WebhookLog): string {
  const meta = metadataLine(log.metadata, META_MAX);
  return [headline(log), truncate(log.message, MESSAGE_MAX), ...(meta ? [meta] : [])].join('\n');
}

const fixed: Pick<PlatformFormat, 'pack'> = { pack: (logs) => chunksOf(logs, CHAT_MAX_LOGS) };

export const slackFormat: PlatformFormat = {
  ...fixed,
  build(logs, context) {
    return {
      text: escapeSlack(summary(logs, context.serverName)),
      blocks: [
        ...logs.map((log) => ({
          type: 'section',
          text: { type: 'mrkdwn', text: escapeSlack(`*${headline(log)}*\n${truncate(log.message, MESSAGE_MAX)}`) },
        })),
        { type: 'context', elements: [{ type: 'mrkdwn', text: escapeSlack(`Skald · ${context.serverName} · ${context.deliveryId}`) }] },
      ],
    };
  },
};

/** Mattermost and Rocket.Chat both take Slack-style attachments with a colour bar. */
function attachmentsFormat(): PlatformFormat {
  return {
    ...fixed,
    build(logs, context) {
      return {
        username: 'Skald',
        text: defuseMentions(summary(logs, context.serverName)),
        attachments: logs.map((log) => ({
          fallback: defuseMentions(headline(log)),
          color: LEVEL_HEX[log.level] ?? LEVEL_HEX['info'],
          title: defuseMentions(headline(log)),
          text: defuseMentions(truncate(log.message, MESSAGE_MAX)),
          ts: new Date(log.createdAt).toISOString(),
        })),
        props: { skald_delivery_id: context.deliveryId },
      };
    },
  };
}

export const mattermostFormat = attachmentsFormat();
export const rocketchatFormat = attachmentsFormat();

export const googlechatFormat: PlatformFormat = {
  ...fixed,
  build(logs, context) {
    const body = logs.map(plainLines).join('\n\n');
    return { text: defuseMentions(`${summary(logs, context.serverName)}\n\n${body}\n\n(${context.deliveryId})`) };
  },
};

export const teamsFormat: PlatformFormat = {
  ...fixed,
  build(logs, context) {
    return {
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: summary(logs, context.serverName), weight: 'Bolder', size: 'Medium', wrap: true },
              ...logs.flatMap((log) => [
                { type: 'TextBlock', text: headline(log), weight: 'Bolder', color: log.level === 'error' || log.level === 'fatal' ? 'Attention' : log.level === 'warn' ? 'Warning' : 'Default', wrap: true },
                { type: 'TextBlock', text: truncate(log.message, MESSAGE_MAX), wrap: true },
              ]),
              { type: 'TextBlock', text: context.deliveryId, isSubtle: true, size: 'Small', wrap: true },
            ],
          },
        },
      ],
    };
  },
};
