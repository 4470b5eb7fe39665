import type { AddCaseLogsBody, Case, CaseList, CreateCaseBody, MessageAnswer, UpdateCaseBody } from '@skald/contracts/api';
import { apiSlice } from '../../app/api.ts';
import { fileSaver } from '../exports/exportsApi.ts';

/** One tag per server's list and one per case: a change refreshes what shows it, nothing else. */
const listTag = (serverId: string) => ({ type: 'Cases' as const, id: `server:${serverId}` });
const caseTag = (id: string) => ({ type: 'Cases' as const, id });

export const casesApi = apiSlice.enhanceEndpoints({ addTagTypes: ['Cases'] }).injectEndpoints({
  endpoints: (build) => ({
    cases: build.query<CaseList, string>({
      query: (serverId) => ({ url: '/cases', params: { serverId } }),
      providesTags: (_r, _e, serverId) => [listTag(serverId)],
    }),
    caseDetail: build.query<Case, string>({
      query: (id) => `/cases/${encodeURIComponent(id)}`,
      providesTags: (_r, _e, id) => [caseTag(id)],
    }),
    createCase: build.mutation<Case, CreateCaseBody>({
      query: (body) => ({ url: '/cases', method: 'POST', body }),
      invalidatesTags: (_r, _e, body) => [listTag(body.serverId)],
    }),
    addCaseLogs: build.mutation<Case, AddCaseLogsBody & { id: string; serverId: string }>({
      query: ({ id, logIds }) => ({ url: `/cases/${encodeURIComponent(id)}/logs`, method: 'POST', body: { logIds } }),
      invalidatesTags: (_r, _e, { id, serverId }) => [caseTag(id), listTag(serverId)],
    }),
    updateCase: build.mutation<Case, UpdateCaseBody & { id: string; serverId: string }>({
      query: ({ id, serverId: _serverId, ...body }) => ({ url: `/cases/${encodeURIComponent(id)}`, method: 'PATCH', body }),
      invalidatesTags: (_r, _e, { id, serverId }) => [caseTag(id), listTag(serverId)],
    }),
    deleteCase: build.mutation<MessageAnswer, { id: string; serverId: string }>({
      query: ({ id }) => ({ url: `/cases/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { serverId }) => [listTag(serverId)],
    }),
    /** The PDF, saved by the browser; the store keeps its size only. */
    downloadCasePdf: build.mutation<{ bytes: number }, { id: string; filename: string }>({
      query: ({ id, filename }) => ({
        url: `/cases/${encodeURIComponent(id)}/pdf`,
        responseHandler: async (response: Response) => {
          if (!response.ok) return response.json().catch(() => ({}));
          const blob = await response.blob();
          fileSaver.save(blob, filename);
          return { bytes: blob.size };
        },
      }),
    }),
  }),
});

export const {
  useCasesQuery,
  useCaseDetailQuery,
  useCreateCaseMutation,
  useAddCaseLogsMutation,
  useUpdateCaseMutation,
  useDeleteCaseMutation,
  useDownloadCasePdfMutation,
} = casesApi;
