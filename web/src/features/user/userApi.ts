import type { MessageAnswer, MessageWithTokenAnswer, TwoFactorSetupAnswer } from '@skald/contracts/api';
import { apiSlice } from '../../app/api.ts';

export const userApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    changeUsername: build.mutation<MessageAnswer, { username: string }>({
      query: (body) => ({ url: '/user/username', method: 'PATCH', body }),
      invalidatesTags: ['Me'],
    }),
    changeEmail: build.mutation<MessageAnswer, { email: string }>({
      query: (body) => ({ url: '/user/email', method: 'PATCH', body }),
      invalidatesTags: ['Me'],
    }),
    // These four answer a new token of the session (the server revokes every older one on a password or
    // 2FA change): `issuesToken` has the base query store it before the caller sees the answer.
    changePassword: build.mutation<MessageWithTokenAnswer, { currentPassword: string; newPassword: string }>({
      query: (body) => ({ url: '/user/password', method: 'PATCH', body }),
      extraOptions: { issuesToken: true },
    }),
    // A fresh secret every time, so it is a mutation rather than a cached query.
    setupTwoFactor: build.mutation<TwoFactorSetupAnswer, undefined>({
      query: () => ({ url: '/2fa/setup', method: 'GET' }),
      extraOptions: { issuesToken: true },
    }),
    verifyTwoFactor: build.mutation<MessageWithTokenAnswer, { token: string }>({
      // No invalidatesTags: the caller refreshes the user once the answer (and its token) is in.
      query: (body) => ({ url: '/2fa/verify', method: 'POST', body }),
      extraOptions: { issuesToken: true },
    }),
    disableTwoFactor: build.mutation<MessageWithTokenAnswer, { token: string }>({
      query: (body) => ({ url: '/2fa/disable', method: 'DELETE', body }),
      extraOptions: { issuesToken: true },
    }),
  }),
});

export const {
  useChangeUsernameMutation,
  useChangeEmailMutation,
  useChangePasswordMutation,
  useSetupTwoFactorMutation,
  useVerifyTwoFactorMutation,
  useDisableTwoFactorMutation,
} = userApi;
