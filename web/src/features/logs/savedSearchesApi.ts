import type { CreateSavedSearchBody, MessageAnswer, SavedSearch, SavedSearchList } from '@skald/contracts/api';
import { apiSlice } from '../../app/api.ts';

/** One tag per server: a save or a deletion refreshes that server's list only. */
const listTag = (serverId: string) => [{ type: 'SavedSearches' as const, id: serverId }];

export const savedSearchesApi = apiSlice.enhanceEndpoints({ addTagTypes: ['SavedSearches'] }).injectEndpoints({
  endpoints: (build) => ({
    savedSearches: build.query<SavedSearchList, string>({
      query: (serverId) => ({ url: '/saved-searches', params: { serverId } }),
      providesTags: (_r, _e, serverId) => listTag(serverId),
    }),
    saveSearch: build.mutation<SavedSearch, CreateSavedSearchBody>({
      query: (body) => ({ url: '/saved-searches', method: 'POST', body }),
      invalidatesTags: (_r, _e, body) => listTag(body.serverId),
    }),
    deleteSavedSearch: build.mutation<MessageAnswer, { serverId: string; id: string }>({
      query: ({ id }) => ({ url: `/saved-searches/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { serverId }) => listTag(serverId),
    }),
  }),
});

export const { useSavedSearchesQuery, useSaveSearchMutation, useDeleteSavedSearchMutation } = savedSearchesApi;
