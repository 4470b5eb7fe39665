/**
 * The signed-in user's record. app.authenticate already refused revoked tokens; the record is read again
 * here because the handler needs it, and checked again so a change in between cannot slip through.
 */
import type { FastifyRequest } from 'fastify';
import { AUTH_INVALID_MESSAGE, AUTH_REQUIRED_MESSAGE, HttpError, userIdFromRequest } from '@skald/service-kit';
import { isSessionRevoked } from '../domain/sessions.ts';
import type { AuthStore, UserDoc } from '../domain/store.ts';

export function currentUserLoader(store: Pick<AuthStore, 'users'>): (request: FastifyRequest) => Promise<UserDoc> {
  return async (request) => {
    // Without app.authenticate before it there are no verified claims: a route declaration bug, answered as 401.
    const userId = userIdFromRequest(request);
    if (userId === null) throw new HttpError(401, AUTH_REQUIRED_MESSAGE);
    const user = await store.users.findOne({ _id: userId });
    if (user === null || isSessionRevoked(user, request.user)) throw new HttpError(401, AUTH_INVALID_MESSAGE);
    return user;
  };
}
