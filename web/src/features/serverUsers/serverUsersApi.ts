import type { AddServerUserAnswer, MessageAnswer, ServerUserCount, ServerUsers } from '@skald/contracts/api';
import { apiSlice } from '../../app/api.ts';

/** Roles the server users screen can give (docs/spec/part-2.txt section 5): the owner is never made here. */
export const ASSIGNABLE_ROLES = ['user', 'admin'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

export const serverUsersApi = apiSlice.enhanceEndpoints({ addTagTypes: ['ServerUsers'] }).injectEndpoints({
  endpoints: (build) => ({
    serverUsers: build.query<ServerUsers, string>({
      query: (serverId) => `/manage/server/${encodeURIComponent(serverId)}/users`,
      providesTags: (_r, _e, serverId) => [{ type: 'ServerUsers', id: serverId }],
    }),
    serverUserCount: build.query<ServerUserCount, string>({
      query: (serverId) => `/manage/server/${encodeURIComponent(serverId)}/user-count`,
      providesTags: (_r, _e, serverId) => [{ type: 'ServerUsers', id: serverId }],
    }),
    addServerUser: build.mutation<AddServerUserAnswer, { serverId: string; email: string; role: AssignableRole }>({
      query: (body) => ({ url: '/manage/add-user', method: 'POST', body }),
      invalidatesTags: (_r, _e, { serverId }) => [{ type: 'ServerUsers', id: serverId }],
    }),
    changeServerUserRole: build.mutation<MessageAnswer, { serverId: string; userId: string; role: AssignableRole }>({
      query: ({ serverId, userId, role }) => ({ url: `/manage/server/${encodeURIComponent(serverId)}/users/${encodeURIComponent(userId)}`, method: 'PATCH', body: { role } }),
      invalidatesTags: (_r, _e, { serverId }) => [{ type: 'ServerUsers', id: serverId }],
    }),
    removeServerUser: build.mutation<MessageAnswer, { serverId: string; userId: string }>({
      query: ({ serverId, userId }) => ({ url: `/manage/server/${encodeURIComponent(serverId)}/users/${encodeURIComponent(userId)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { serverId }) => [{ type: 'ServerUsers', id: serverId }],
    }),
  }),
});

export const { useServerUsersQuery, useServerUserCountQuery, useAddServerUserMutation, useChangeServerUserRoleMutation, useRemoveServerUserMutation } = serverUsersApi;

// docs/spec/part-2.txt section 8, as written (misspellings included).
export const SERVER_USERS_TEXT = {
  loading: 'Loading users...',
  loadFailed: 'Failed to gather information.',
  addFailedFallback: 'Failed to add user.',
  addFailedToast: 'Failed to add user to the dashboard',
  added: 'Successfully added user to the dashboard',
  roleFailed: 'Failed to update user role',
  roleUpdated: 'User role updated succesfully',
  removeFailed: 'Failed to remove user:',
  removed: 'Succesfully removed user from the dashboard',
} as const;

/** 'current / limit users' (docs/spec/part-2.txt section 2). */
export function userCountText(count: ServerUserCount): string {
  return `${count.current} / ${count.limit} users`;
}

/** Add user is disabled once the tier's limit is reached (docs/spec/part-2.txt section 4). */
export function atUserLimit(count: ServerUserCount | undefined): boolean {
  return count !== undefined && count.current >= count.limit;
}
