import { apiSlice } from '../../app/api.ts';

export interface TwoFactorSetup {
  qr: string;
  secret?: string;
  token?: string;
  otpauth_url?: string;
}

export const userApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    changeUsername: build.mutation<{ message?: string }, { username: string }>({
      query: (body) => ({ url: '/user/username', method: 'PATCH', body }),
      invalidatesTags: ['Me'],
    }),
    changeEmail: build.mutation<{ message?: string }, { email: string }>({
      query: (body) => ({ url: '/user/email', method: 'PATCH', body }),
      invalidatesTags: ['Me'],
    }),
    changePassword: build.mutation<{ message?: string }, { currentPassword: string; newPassword: string }>({
      query: (body) => ({ url: '/user/password', method: 'PATCH', body }),
    }),
    // A fresh secret every time, so it is a mutation rather than a cached query.
    setupTwoFactor: build.mutation<TwoFactorSetup, undefined>({
      query: () => ({ url: '/2fa/setup', method: 'GET' }),
    }),
    verifyTwoFactor: build.mutation<{ token?: string }, { token: string }>({
      // No invalidatesTags: the caller stores the new token first, then refreshes the user.
      query: (body) => ({ url: '/2fa/verify', method: 'POST', body }),
    }),
    disableTwoFactor: build.mutation<{ token?: string }, { token: string }>({
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
