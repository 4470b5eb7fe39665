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
    // The server revokes every older token and answers a new one; the caller stores it (like 2FA below).
    changePassword: build.mutation<MessageWithTokenAnswer, { currentPassword: string; newPassword: string }>({
      query: (body) => ({ url: '/user/password', method: 'PATCH', body }),
    }),
    // A fresh secret every time, so it is a mutation rather than a cached query.
    setupTwoFactor: build.mutation<TwoFactorSetupAnswer, undefined>({
      query: () => ({ url: '/2fa/setup', method: 'GET' }),
    }),
    verifyTwoFactor: build.mutation<MessageWithTokenAnswer, { token: string }>({
      // No invalidatesTags: the caller stores the new token first, then refreshes the user.
      query: (body) => ({ url: '/2fa/verify', method: 'POST', body }),
    }),
    disableTwoFactor: build.mutation<MessageWithTokenAnswer, { token: string }>({
      query: (body) => ({ url: '/2fa/disable', method: 'DELETE', body }),
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
