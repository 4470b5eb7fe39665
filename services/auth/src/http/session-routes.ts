/**
 * The signed-in session: the current user, logout and token refresh (the last two are not in the spec:
 * the web client keeps one short-lived token, so it refreshes it; logout revokes every token of the user).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { MeAnswerSchema, MessageAnswerSchema, TokenAnswerSchema } from '@skald/contracts/api';
import { logout } from '../domain/sessions.ts';
import { serversOfUser, userView } from '../domain/views.ts';
import type { AuthRouteDeps } from './deps.ts';
import { errorAnswers } from './schemas.ts';

const tags = ['auth'];
export const LOGGED_OUT = 'Logged out.';

export async function registerSessionRoutes(app: FastifyInstance, deps: AuthRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const signedIn = { preHandler: [app.authenticate] };

  typed.get(
    '/auth/me',
    { ...signedIn, schema: { tags, summary: 'The signed-in user and their servers', response: { 200: MeAnswerSchema, ...errorAnswers(401) } } },
    async (request) => {
      const user = await deps.currentUser(request);
      return { user: userView(user), servers: await serversOfUser(deps.store, user._id) };
    },
  );

  typed.post(
    '/auth/logout',
    { ...signedIn, schema: { tags, summary: 'Sign out everywhere (revokes every token)', response: { 200: MessageAnswerSchema, ...errorAnswers(401) } } },
    async (request) => {
      await logout(deps, await deps.currentUser(request));
      return { message: LOGGED_OUT };
    },
  );

  typed.post(
    '/auth/refresh',
    {
      // A token that expired less than the renewal grace ago (a tab that slept) may still be renewed;
      // a revoked one never (the token version is checked as on every route).
      preHandler: [app.authenticateForRenewal],
      schema: { tags, summary: 'A fresh access token of the same session', response: { 200: TokenAnswerSchema, ...errorAnswers(401) } },
    },
    async (request) => ({ token: deps.tokens.issue(await deps.currentUser(request)) }),
  );
}
