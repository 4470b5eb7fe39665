/** Request and error-answer schemas shared by the billing route files (answer bodies are in @skald/contracts). */
import Type from 'typebox';
import { ErrorBodySchema } from '@skald/contracts';

export const ServerIdParamsSchema = Type.Object({ serverId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

/** requireServerRole(directory, 'user'): 401 without a valid token, 404 for non-members and unknown servers. */
export const MEMBER_ERRORS = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema } as const;

/** requireServerRole(directory, 'owner'): also 403 below owner; 409 a refused purchase; 503 payments not configured. */
export const OWNER_ERRORS = { ...MEMBER_ERRORS, 403: ErrorBodySchema, 409: ErrorBodySchema, 503: ErrorBodySchema } as const;
