import type { CreateServerAnswer, ServerUsage } from '@skald/contracts/api';
import { apiSlice } from '../../app/api.ts';

export const serversApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    serverUsage: build.query<ServerUsage, string>({
      query: (serverId) => `/server/usage/${encodeURIComponent(serverId)}`,
      providesTags: (_r, _e, id) => [{ type: 'Usage', id }],
    }),
    createServer: build.mutation<CreateServerAnswer, { name: string }>({
      query: (body) => ({ url: '/server/servers', method: 'POST', body }),
      invalidatesTags: ['Me'],
    }),
  }),
});

export const { useServerUsageQuery, useCreateServerMutation } = serversApi;

/** Usage refreshes on mount and every 10 seconds (docs/spec/part-1.txt section 7). */
export const USAGE_POLL_MS = 10_000;
