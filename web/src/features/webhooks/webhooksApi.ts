import type { CreateWebhookBody, DeadLettersCleared, DeliveryResult, SavedWebhook, UpdateWebhookBody, WebhookList, WebhookOptions } from '@skald/contracts/api';
import { apiSlice } from '../../app/api.ts';

/** The list refreshes on its own so delivery state (last attempt, dead letters) shows without a reload. */
export const WEBHOOKS_POLL_MS = 10_000;

const listTag = (serverId: string) => [{ type: 'Webhooks' as const, id: serverId }];

export const webhooksApi = apiSlice.enhanceEndpoints({ addTagTypes: ['Webhooks', 'WebhookOptions'] }).injectEndpoints({
  endpoints: (build) => ({
    webhooks: build.query<WebhookList, string>({
      query: (serverId) => `/webhooks?serverId=${encodeURIComponent(serverId)}`,
      providesTags: (_r, _e, serverId) => listTag(serverId),
    }),
    webhookOptions: build.query<WebhookOptions, string>({
      query: (serverId) => `/webhooks/options?serverId=${encodeURIComponent(serverId)}`,
      providesTags: (_r, _e, serverId) => [{ type: 'WebhookOptions', id: serverId }],
    }),
    addWebhook: build.mutation<SavedWebhook, CreateWebhookBody>({
      query: (body) => ({ url: '/webhooks', method: 'POST', body }),
      invalidatesTags: (_r, _e, body) => listTag(body.serverId),
    }),
    updateWebhook: build.mutation<SavedWebhook, { serverId: string; id: string; body: UpdateWebhookBody }>({
      query: ({ id, body }) => ({ url: `/webhooks/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { serverId }) => listTag(serverId),
    }),
    deleteWebhook: build.mutation<{ message: string }, { serverId: string; id: string }>({
      query: ({ id }) => ({ url: `/webhooks/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { serverId }) => listTag(serverId),
    }),
    // Test and replay change the delivery state (and the dead letters) whether they succeed or not.
    testWebhook: build.mutation<DeliveryResult, { serverId: string; id: string }>({
      query: ({ id }) => ({ url: `/webhooks/${encodeURIComponent(id)}/test`, method: 'POST' }),
      invalidatesTags: (_r, _e, { serverId }) => listTag(serverId),
    }),
    replayDeadLetter: build.mutation<DeliveryResult, { serverId: string; id: string; deadLetterId: string }>({
      query: ({ id, deadLetterId }) => ({ url: `/webhooks/${encodeURIComponent(id)}/replay/${encodeURIComponent(deadLetterId)}`, method: 'POST' }),
      invalidatesTags: (_r, _e, { serverId }) => listTag(serverId),
    }),
    clearDeadLetters: build.mutation<DeadLettersCleared, { serverId: string; id: string }>({
      query: ({ id }) => ({ url: `/webhooks/${encodeURIComponent(id)}/dead-letters`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { serverId }) => listTag(serverId),
    }),
  }),
});

export const {
  useWebhooksQuery,
  useWebhookOptionsQuery,
  useAddWebhookMutation,
  useUpdateWebhookMutation,
  useDeleteWebhookMutation,
  useTestWebhookMutation,
  useReplayDeadLetterMutation,
  useClearDeadLettersMutation,
} = webhooksApi;
