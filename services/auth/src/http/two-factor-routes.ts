/**
 * Two-factor authentication (docs/spec/part-2.txt section 4). The spec's payload names the 6-digit code `token`. Verify and
 * disable revoke every older access token; the answer carries a fresh one, which the client stores.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { MessageWithTokenAnswerSchema, TwoFactorSetupAnswerSchema } from '@skald/contracts/api';
import { ACTIVATED, DISABLED, disableTwoFactor, enableTwoFactor, startTwoFactorSetup } from '../domain/two-factor.ts';
import type { AuthRouteDeps } from './deps.ts';
import { CodeBody, errorAnswers } from './schemas.ts';

const tags = ['auth'];

export async function registerTwoFactorRoutes(app: FastifyInstance, deps: AuthRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const signedIn = { preHandler: [app.authenticate] };

  typed.get(
    '/2fa/setup',
    { ...signedIn, schema: { tags, summary: 'Start 2FA setup: QR code and secret', response: { 200: TwoFactorSetupAnswerSchema, ...errorAnswers(400, 401) } } },
    async (request) => startTwoFactorSetup(deps, await deps.currentUser(request)),
  );

  typed.post(
    '/2fa/verify',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Turn 2FA on with a code from the authenticator (answers a fresh token)',
        body: CodeBody,
        response: { 200: MessageWithTokenAnswerSchema, ...errorAnswers(400, 401, 429) },
      },
    },
    async (request) => {
      const updated = await enableTwoFactor(deps, await deps.currentUser(request), request.body.token);
      return { message: ACTIVATED, token: deps.tokens.issue(updated) };
    },
  );

  typed.delete(
    '/2fa/disable',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Turn 2FA off with a valid code (answers a fresh token)',
        body: CodeBody,
        response: { 200: MessageWithTokenAnswerSchema, ...errorAnswers(400, 401, 429) },
      },
    },
    async (request) => {
      const updated = await disableTwoFactor(deps, await deps.currentUser(request), request.body.token);
      return { message: DISABLED, token: deps.tokens.issue(updated) };
    },
  );
}
