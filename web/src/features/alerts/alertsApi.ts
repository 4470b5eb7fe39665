import type { AlertHistory, AlertList, AlertTestResult, ApiAlertRule, CreateAlertBody, UpdateAlertBody } from '@skald/contracts/api';
import { apiSlice } from '../../app/api.ts';

/** The list refreshes on its own so a rule's state (ok, firing) shows without a reload. */
export const ALERTS_POLL_MS = 10_000;

const listTag = (serverId: string) => [{ type: 'Alerts' as const, id: serverId }];
const historyTag = (id: string) => [{ type: 'AlertHistory' as const, id }];

export const alertsApi = apiSlice.enhanceEndpoints({ addTagTypes: ['Alerts', 'AlertHistory'] }).injectEndpoints({
  endpoints: (build) => ({
    alerts: build.query<AlertList, string>({
      query: (serverId) => `/alerts?serverId=${encodeURIComponent(serverId)}`,
      providesTags: (_r, _e, serverId) => listTag(serverId),
    }),
    alertHistory: build.query<AlertHistory, string>({
      query: (id) => `/alerts/${encodeURIComponent(id)}/history`,
      providesTags: (_r, _e, id) => historyTag(id),
    }),
    addAlert: build.mutation<{ alert: ApiAlertRule }, CreateAlertBody>({
      query: (body) => ({ url: '/alerts', method: 'POST', body }),
      invalidatesTags: (_r, _e, body) => listTag(body.serverId),
    }),
    // A changed rule starts over (state ok, window cleared); its history stays.
    updateAlert: build.mutation<{ alert: ApiAlertRule }, { serverId: string; id: string; body: UpdateAlertBody }>({
      query: ({ id, body }) => ({ url: `/alerts/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { serverId, id }) => [...listTag(serverId), ...historyTag(id)],
    }),
    deleteAlert: build.mutation<{ message: string }, { serverId: string; id: string }>({
      query: ({ id }) => ({ url: `/alerts/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { serverId }) => listTag(serverId),
    }),
    testAlert: build.mutation<AlertTestResult, { id: string }>({
      query: ({ id }) => ({ url: `/alerts/${encodeURIComponent(id)}/test`, method: 'POST' }),
    }),
  }),
});

export const { useAlertsQuery, useAlertHistoryQuery, useAddAlertMutation, useUpdateAlertMutation, useDeleteAlertMutation, useTestAlertMutation } = alertsApi;
