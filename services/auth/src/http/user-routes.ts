/** Account settings (docs/spec/part-2.txt sections 2 "User settings" and 7): change username, e-mail, password. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { MessageAnswerSchema, MessageWithTokenAnswerSchema } from '@skald/contracts/api';
import { EMAIL_UPDATED, PASSWORD_UPDATED, USERNAME_UPDATED, changeEmail, changePassword, changeUsername } from '../domain/account-settings.ts';
import type { AuthRouteDeps } from './deps.ts';
import { EmailBody, PasswordBody, UsernameBody, errorAnswers } from './schemas.ts';

const tags = ['users'];

export async function registerUserRoutes(app: FastifyInstance, deps: AuthRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const signedIn = { preHandler: [app.authenticate] };

  typed.patch(
    '/user/username',
    { ...signedIn, schema: { tags, summary: 'Change the username', body: UsernameBody, response: { 200: MessageAnswerSchema, ...errorAnswers(400, 401, 409) } } },
    async (request) => {
      await changeUsername(deps, await deps.currentUser(request), request.body.username);
      return { message: USERNAME_UPDATED };
    },
  );

  typed.patch(
    '/user/email',
    { ...signedIn, schema: { tags, summary: 'Change the e-mail address', body: EmailBody, response: { 200: MessageAnswerSchema, ...errorAnswers(400, 401, 409) } } },
    async (request) => {
      await changeEmail(deps, await deps.currentUser(request), request.body.email);
      return { message: EMAIL_UPDATED };
    },
  );

  typed.patch(
    '/user/password',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Change the password (signs out other sessions; answers a fresh token)',
        body: PasswordBody,
        response: { 200: MessageWithTokenAnswerSchema, ...errorAnswers(400, 401, 429) },
      },
    },
    async (request) => {
      const updated = await changePassword(deps, await deps.currentUser(request), request.body);
      // Every older token (other devices included) is dead; the caller continues with this one.
      return { message: PASSWORD_UPDATED, token: deps.tokens.issue(updated) };
    },
  );
}
