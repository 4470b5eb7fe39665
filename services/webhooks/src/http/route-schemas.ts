/** Request and error-answer schemas shared by the webhooks route files (answer bodies are in @skald/contracts). */
import Type from 'typebox';
import { ErrorBodySchema } from '@skald/contracts';

export const ServerIdQuerySchema = Type.Object({ serverId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

const Id = Type.String({ minLength: 1, maxLength: 64 });
export const WebhookParamsSchema = Type.Object({ id: Id }, { additionalProperties: false });
export const DeadLetterParamsSchema = Type.Object({ id: Id, deadLetterId: Id }, { additionalProperties: false });

/**
 * Every route is for owner and admin (requireServerRole(directory, 'admin') or its webhook-id form): 400 a
 * refused input, 401 no valid token, 403 a member with the user role (or the tier's limit on create), 404 a
 * server or webhook of another tenant or none at all.
 */
export const ADMIN_ERRORS = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema } as const;

/** Test and replay also answer 502 when the receiver did not accept the delivery. */
export const DELIVERY_ERRORS = { ...ADMIN_ERRORS, 502: ErrorBodySchema } as const;
