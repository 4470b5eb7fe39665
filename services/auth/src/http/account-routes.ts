/** Sign-up, sign-in (with the 2FA step) and password recovery (docs/spec/part-1.txt sections 2 to 4 and 7). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { LoginAnswerSchema, MessageAnswerSchema, RegisterAnswerSchema, SessionAnswerSchema } from '@skald/contracts/api';
import { completeTwoFactorLogin, login } from '../domain/login.ts';
import { FORGOT_ANSWER, PASSWORD_CHANGED, requestPasswordReset, resetPassword } from '../domain/password-reset.ts';
import { REGISTERED, registerUser } from '../domain/registration.ts';
import type { AuthRouteDeps } from './deps.ts';
import { ForgotBody, LoginBody, RegisterBody, ResetBody, TwoFactorLoginBody, errorAnswers } from './schemas.ts';

const tags = ['auth'];
/** Every route here is reached without a session (the OpenAPI document must not ask for a token). */
const security: [] = [];

export async function registerAccountRoutes(app: FastifyInstance, deps: AuthRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.post(
    '/auth/register',
    { schema: { tags, security, summary: 'Create an account', body: RegisterBody, response: { 201: RegisterAnswerSchema, ...errorAnswers(400, 409) } } },
    async (request, reply) => {
      const user = await registerUser(deps, request.body);
      return reply.code(201).send({ message: REGISTERED, id: user._id });
    },
  );

  typed.post(
    '/auth/login',
    {
      schema: {
        tags,
        security,
        summary: 'Sign in: a session, or a pre-token for the 2FA step',
        body: LoginBody,
        response: { 200: LoginAnswerSchema, ...errorAnswers(400, 401, 403, 429) },
      },
    },
    async (request) => login(deps, { ...request.body, ip: request.ip }),
  );

  typed.post(
    '/auth/2fa-login',
    {
      schema: {
        tags,
        security,
        summary: 'Finish a sign-in with the 2FA code',
        body: TwoFactorLoginBody,
        response: { 200: SessionAnswerSchema, ...errorAnswers(400, 401, 429) },
      },
    },
    async (request) => completeTwoFactorLogin(deps, { preToken: request.body.token, code: request.body.code }),
  );

  typed.post(
    '/auth/forgot-password',
    {
      schema: {
        tags,
        security,
        summary: 'Mail a password reset link (same answer for unknown addresses)',
        body: ForgotBody,
        response: { 200: MessageAnswerSchema, ...errorAnswers(400, 429) },
      },
    },
    async (request) => {
      await requestPasswordReset(deps, { email: request.body.email, ip: request.ip });
      return { message: FORGOT_ANSWER };
    },
  );

  typed.post(
    '/auth/reset-password',
    {
      schema: {
        tags,
        security,
        summary: 'Set a new password with a mailed reset token',
        body: ResetBody,
        response: { 200: MessageAnswerSchema, ...errorAnswers(400, 429) },
      },
    },
    async (request) => {
      await resetPassword(deps, { ...request.body, ip: request.ip });
      return { message: PASSWORD_CHANGED };
    },
  );
}
