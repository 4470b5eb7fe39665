import type { LoginAnswer, MeAnswer, MessageAnswer, RegisterAnswer, SessionAnswer } from '@skald/contracts/api';
import { apiSlice } from '../../app/api.ts';

export const authApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    me: build.query<MeAnswer, undefined>({ query: () => '/auth/me', providesTags: ['Me'] }),
    login: build.mutation<LoginAnswer, { username: string; password: string }>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
    }),
    twoFactorLogin: build.mutation<SessionAnswer, { token: string; code: string }>({
      query: (body) => ({ url: '/auth/2fa-login', method: 'POST', body }),
    }),
    register: build.mutation<RegisterAnswer, { username: string; password: string; email: string }>({
      query: (body) => ({ url: '/auth/register', method: 'POST', body }),
    }),
    forgotPassword: build.mutation<MessageAnswer, { email: string }>({
      query: (body) => ({ url: '/auth/forgot-password', method: 'POST', body }),
    }),
    resetPassword: build.mutation<MessageAnswer, { token: string; password: string }>({
      query: (body) => ({ url: '/auth/reset-password', method: 'POST', body }),
    }),
  }),
});

export const {
  useMeQuery,
  useLoginMutation,
  useTwoFactorLoginMutation,
  useRegisterMutation,
  useForgotPasswordMutation,
  useResetPasswordMutation,
} = authApi;
