/**
 * Saved searches: named filters of /logs shared by every member of a server (docs/LOGS_API.md "Saved
 * searches"), kept in the logs service's document store, collection `saved_searches`.
 *
 * At most SAVED_SEARCH_LIMITS.maxPerServer per server, held by the store (bounded-slots.ts: numbered slots
 * under a unique index). Names are unique on the server ignoring case, by a second unique index.
 */
import { randomUUID } from 'node:crypto';
import {
  SAVED_SEARCH_DATES_REVERSED,
  SAVED_SEARCH_LIMITS,
  SAVED_SEARCH_NAME_REQUIRED,
  SAVED_SEARCH_NAME_TAKEN,
  SAVED_SEARCH_NAME_TOO_LONG,
  SAVED_SEARCH_NO_FILTER,
  SAVED_SEARCHES_FULL,
  validationSentence,
} from '@skald/contracts';
import type { SavedSearch, SavedSearchQuery } from '@skald/contracts';
import type { BaseDocument, Collection, DocumentStore } from '@skald/ports';
import { insertInFreeSlot } from './bounded-slots.ts';

interface SavedSearchDocument extends BaseDocument {
  readonly serverId: string;
  /** 0 .. maxPerServer - 1: which of the server's places the search holds (unique per server). */
  readonly slot: number;
  readonly name: string;
  /** The name lower-cased: unique per server. */
  readonly nameKey: string;
  readonly query: SavedSearchQuery;
  readonly createdBy: string;
  readonly createdAt: number;
}

/** A search as the domain reads it: its server and creator, for the access checks. */
export interface StoredSavedSearch {
  readonly id: string;
  readonly serverId: string;
  readonly name: string;
  readonly query: SavedSearchQuery;
  readonly createdBy: string;
  readonly createdAt: number;
}

export interface SavedSearchInput {
  readonly serverId: string;
  readonly name: string;
  readonly query: SavedSearchQuery;
  readonly createdBy: string;
  readonly now: number;
}

/** Why a search was not saved: a sentence for the person, and whether it is the request (400) or the server's state (409). */
export interface SavedSearchRefusal {
  readonly refused: 'invalid' | 'conflict';
  readonly message: string;
}

export interface SavedSearches {
  /** The server's searches by name, ignoring case. */
  list(serverId: string): Promise<StoredSavedSearch[]>;
  get(id: string): Promise<StoredSavedSearch | null>;
  create(input: SavedSearchInput): Promise<StoredSavedSearch | SavedSearchRefusal>;
  /** True when it was there. */
  remove(id: string): Promise<boolean>;
}

const FILTERS = ['search', 'type', 'level', 'resource', 'dateFrom', 'dateTo'] as const;

/** A real calendar day (the schema checked the YYYY-MM-DD shape only). */
function isDay(value: string): boolean {
  const ms = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === value;
}

/** The filters set (blank ones dropped, text trimmed), or why they cannot be saved. */
export function normaliseQuery(query: SavedSearchQuery): { query: SavedSearchQuery } | SavedSearchRefusal {
  const kept: Record<string, string> = {};
  for (const field of FILTERS) {
    const value = query[field]?.trim();
    if (value !== undefined && value !== '') kept[field] = value;
  }
  for (const field of ['dateFrom', 'dateTo'] as const) {
    const day = kept[field];
    if (day !== undefined && !isDay(day)) return { refused: 'invalid', message: validationSentence({ field, rule: 'format', format: 'date' }) };
  }
  if (Object.keys(kept).length === 0) return { refused: 'invalid', message: SAVED_SEARCH_NO_FILTER };
  if (kept['dateFrom'] !== undefined && kept['dateTo'] !== undefined && kept['dateFrom'] > kept['dateTo']) {
    return { refused: 'invalid', message: SAVED_SEARCH_DATES_REVERSED };
  }
  return { query: kept as SavedSearchQuery };
}

/** The trimmed name, or why it cannot be one. */
export function normaliseName(name: string): { name: string } | SavedSearchRefusal {
  const trimmed = name.trim();
  if (trimmed === '') return { refused: 'invalid', message: SAVED_SEARCH_NAME_REQUIRED };
  // Counted in characters as a person sees them (an emoji is one), not UTF-16 units.
  if ([...trimmed].length > SAVED_SEARCH_LIMITS.maxNameLength) return { refused: 'invalid', message: SAVED_SEARCH_NAME_TOO_LONG };
  return { name: trimmed };
}

function fromDocument(doc: SavedSearchDocument): StoredSavedSearch {
  return { id: doc._id, serverId: doc.serverId, name: doc.name, query: doc.query, createdBy: doc.createdBy, createdAt: doc.createdAt };
}

export function toApiSavedSearch(search: StoredSavedSearch): SavedSearch {
  return { id: search.id, name: search.name, query: search.query, createdBy: search.createdBy, createdAt: new Date(search.createdAt).toISOString() };
}

export async function createSavedSearches(docs: DocumentStore): Promise<SavedSearches> {
  const collection: Collection<SavedSearchDocument> = await docs.collection<SavedSearchDocument>('saved_searches', [
    { fields: ['serverId', 'slot'], unique: true },
    { fields: ['serverId', 'nameKey'], unique: true },
  ]);

  async function ofServer(serverId: string): Promise<SavedSearchDocument[]> {
    return collection.find({ serverId });
  }

  return {
    async list(serverId) {
      const all = (await ofServer(serverId)).map(fromDocument);
      return all.sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.createdAt - b.createdAt);
    },

    async get(id) {
      const doc = await collection.findOne({ _id: id });
      return doc === null ? null : fromDocument(doc);
    },

    async create(input) {
      const named = normaliseName(input.name);
      if ('refused' in named) return named;
      const filters = normaliseQuery(input.query);
      if ('refused' in filters) return filters;
      const nameKey = named.name.toLowerCase();
      const inserted = await insertInFreeSlot({
        max: SAVED_SEARCH_LIMITS.maxPerServer,
        held: () => ofServer(input.serverId),
        refuse: (held): SavedSearchRefusal | null => (held.some((doc) => doc.nameKey === nameKey) ? { refused: 'conflict', message: SAVED_SEARCH_NAME_TAKEN } : null),
        insert: async (slot) => {
          const doc: SavedSearchDocument = {
            _id: randomUUID(),
            serverId: input.serverId,
            slot,
            name: named.name,
            nameKey,
            query: filters.query,
            createdBy: input.createdBy,
            createdAt: input.now,
          };
          await collection.insertOne(doc);
          return doc;
        },
      });
      if (inserted === null) return { refused: 'conflict', message: SAVED_SEARCHES_FULL };
      return 'refused' in inserted ? inserted : fromDocument(inserted);
    },

    async remove(id) {
      return (await collection.deleteOne({ _id: id })) > 0;
    },
  };
}
