/**
 * GET /api/public-config: the installation's settings the web app shows, today the support
 * address (SUPPORT_EMAIL) of the privacy policy and the terms. The gateway serves it in both modes because
 * it is the process that serves the web app: no service owns these settings, and the answer needs no store.
 * Public, like the pages that read it; nothing in it is a secret.
 */
import type { FastifyInstance } from 'fastify';
import type { SkaldConfig } from '@skald/config';
import { PublicConfigSchema } from '@skald/contracts/api';
import type { PublicConfig } from '@skald/contracts/api';

export const PUBLIC_CONFIG_PATH = '/api/public-config';

export function registerPublicConfig(app: FastifyInstance, config: Pick<SkaldConfig, 'supportEmail'>): void {
  const answer: PublicConfig = { supportEmail: config.supportEmail ?? null };
  app.get(
    PUBLIC_CONFIG_PATH,
    // Hidden from the OpenAPI document like the gateway's other own routes (health, the document itself):
    // the document describes the services' routes, and the proxy-only gateway's merged one could not list it.
    { schema: { hide: true, response: { 200: PublicConfigSchema } } },
    async (_request, reply) => {
      // Short browser cache: the value changes only with a restart.
      reply.header('cache-control', 'public, max-age=300');
      return answer;
    },
  );
}
