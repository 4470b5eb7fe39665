import { apiSlice } from '../../app/api.ts';
import type { LoginResponse, MeResponse, ServerSummary } from '../common/types.ts';

export const authApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    me: build.query<MeResponse, undefined>({ query: () => '/auth/me', providesTags: ['Me'] }),
    login: build.mutation<LoginResponse, { username: string; password: string }>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
    }),
    twoFactorLogin: build.mutation<{ token: string; servers?: ServerSummary[] }, { token: string; code: string }>({
      query: (body) => ({ url: '/auth/2fa-login', method: 'POST', body }),
    }),
    register: build.mutation<{ message?: string }, { username: string; password: string; email: string }>({
      query: (body) => ({ url: '/auth/register', method: 'POST', body }),
    }),
    forgotPassword: build.mutation<{ message?: string }, { email: string }>({
      query: (body) => ({ url: '/auth/forgot-password', method: 'POST', body }),
    }),
    resetPassword: build.mutation<{ message?: string }, { token: string; password: string }>({
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
