/**
 * HTTP shapes of saved searches (the logs service, docs/LOGS_API.md "Saved searches"): named filters of
 * /logs that every member of a server shares. Texts the web app and the service must agree on live here
 * and in validation-messages.ts.
 */
import Type from 'typebox';
import type { Static } from 'typebox';

/** Bounds the service enforces (and the menu's form mirrors). */
export const SAVED_SEARCH_LIMITS = {
  maxPerServer: 50,
  /** After trimming; 1 at least. */
  maxNameLength: 100,
  /** The same bound as the list filters of GET /logs/my. */
  maxFilterLength: 200,
} as const;

export const SAVED_SEARCH_NOT_FOUND = 'Saved search not found.';
export const SAVED_SEARCH_DELETE_REFUSED = 'Only the member who saved this search, or an owner or admin of the server, may delete it.';

const Filter = Type.Optional(Type.String({ maxLength: SAVED_SEARCH_LIMITS.maxFilterLength }));
/** A whole day as the date pickers of /logs name it (YYYY-MM-DD, in the viewer's time zone when applied). */
const Day = Type.Optional(Type.String({ maxLength: 10, pattern: '^\\d{4}-\\d{2}-\\d{2}$' }));

/**
 * The filters of /logs a search keeps: the same names and meaning as the query of GET /logs/my. Only the
 * filters set are stored and answered (blank ones are dropped when saved).
 */
export const SavedSearchQuerySchema = Type.Object(
  { search: Filter, type: Filter, level: Filter, resource: Filter, dateFrom: Day, dateTo: Day },
  { additionalProperties: false },
);
export type SavedSearchQuery = Static<typeof SavedSearchQuerySchema>;

export const SavedSearchSchema = Type.Object(
  {
    id: Type.String(),
    /** Trimmed, 1 to maxNameLength characters; unique on the server, ignoring case. */
    name: Type.String(),
    query: SavedSearchQuerySchema,
    /** The user id of the member who saved it (they may delete it, as may the server's owner and admins). */
    createdBy: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type SavedSearch = Static<typeof SavedSearchSchema>;

/** GET /saved-searches?serverId=: the server's saved searches by name (ignoring case). */
export const SavedSearchListSchema = Type.Object({ searches: Type.Array(SavedSearchSchema) }, { additionalProperties: false });
export type SavedSearchList = Static<typeof SavedSearchListSchema>;

/**
 * POST /saved-searches. `name` is required, and checked by the service after trimming, so that a missing,
 * blank or long name reads a sentence about a search's name (validation-messages.ts), not the general
 * rule's sentence about a field called `name` (a server's).
 */
export const CreateSavedSearchBodySchema = Type.Object(
  {
    serverId: Type.String({ minLength: 1, maxLength: 64 }),
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    query: SavedSearchQuerySchema,
  },
  { additionalProperties: false },
);
export type CreateSavedSearchBody = Static<typeof CreateSavedSearchBodySchema>;
