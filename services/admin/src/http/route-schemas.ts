/** Error-answer schemas shared by the admin route files (answer bodies are in @skald/contracts). */
import { ErrorBodySchema } from '@skald/contracts';

/**
 * Refusals of a route guarded by requireServerRole(directory, 'admin'): 400 a refused parameter, 401 no
 * valid access token, 403 a member with the user role, 404 a server the caller is not a member of.
 */
export const SERVER_ADMIN_ERRORS = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema } as const;

/** Refusals of a staff route: 401 no valid access token, 403 a site role below the route's. */
export const STAFF_ERRORS = { 401: ErrorBodySchema, 403: ErrorBodySchema } as const;

/** Refusals of a staff read of one server: also 400 a refused parameter and 404 a server that does not exist. */
export const STAFF_READ_ERRORS = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema } as const;
