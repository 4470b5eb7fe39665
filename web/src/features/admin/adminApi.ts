import type {
  AddServerUserAnswer,
  AdminLogList,
  AdminPhotoLogPage,
  AdminServerAuditPage,
  AdminServerBackups,
  AdminServerDetail,
  AdminServerList,
  AdminServerLogs,
  AdminServerUsers,
  AdminStats,
  AdminTierList,
  AdminUserList,
  AdminUserState,
  MessageAnswer,
  SiteRole,
  StaffServerState,
} from '@skald/contracts/api';
import { apiSlice } from '../../app/api.ts';
import { withMemberRole } from './memberRoles.ts';

const enc = encodeURIComponent;

/** Server roles the admin area offers (docs/spec/part-2.txt sections 4, 5); owner hands the server over (the previous owner becomes admin). */
export const ADMIN_MEMBER_ROLES = ['user', 'admin', 'owner'] as const;
export type AdminMemberRole = (typeof ADMIN_MEMBER_ROLES)[number];

/**
 * The staff admin area's calls (docs/spec/part-2.txt section 7). Reads come from the admin service (logs and photo logs of a
 * server from the logs service), changes from their owners (auth, billing); the gateway routes them all.
 */
export const adminApi = apiSlice.enhanceEndpoints({ addTagTypes: ['AdminUsers', 'AdminServers', 'AdminServer', 'AdminServerUsers'] }).injectEndpoints({
  endpoints: (build) => ({
    adminStats: build.query<AdminStats, undefined>({ query: () => '/admin/stats' }),
    adminUsers: build.query<AdminUserList, undefined>({ query: () => '/admin/users', providesTags: ['AdminUsers'] }),
    setUserRole: build.mutation<AdminUserState, { userId: string; role: SiteRole }>({
      query: ({ userId, role }) => ({ url: `/admin/users/${enc(userId)}/role`, method: 'PUT', body: { role } }),
      invalidatesTags: ['AdminUsers'],
    }),
    setUserActive: build.mutation<AdminUserState, { userId: string; active: boolean }>({
      query: ({ userId, active }) => ({ url: `/admin/users/${enc(userId)}/active`, method: 'PUT', body: { active } }),
      invalidatesTags: ['AdminUsers'],
    }),
    adminServers: build.query<AdminServerList, undefined>({ query: () => '/admin/servers', providesTags: ['AdminServers'] }),
    adminTiers: build.query<AdminTierList, undefined>({ query: () => '/admin/tiers' }),
    adminServer: build.query<AdminServerDetail, string>({ query: (id) => `/admin/servers/${enc(id)}`, providesTags: (_r, _e, id) => [{ type: 'AdminServer', id }] }),
    adminServerUsers: build.query<AdminServerUsers, string>({
      query: (id) => `/admin/servers/${enc(id)}/users`,
      providesTags: (_r, _e, id) => [{ type: 'AdminServerUsers', id }],
    }),
    adminServerLogs: build.query<AdminServerLogs, string>({ query: (id) => `/admin/servers/${enc(id)}/logs` }),
    adminServerBackups: build.query<AdminServerBackups, string>({ query: (id) => `/admin/servers/${enc(id)}/backups` }),
    adminServerPhotos: build.query<AdminPhotoLogPage, { id: string; page: number; limit: number }>({
      query: ({ id, page, limit }) => `/admin/servers/${enc(id)}/photologs?page=${page}&limit=${limit}`,
    }),
    adminServerAudit: build.query<AdminServerAuditPage, { id: string; page: number; limit: number }>({
      query: ({ id, page, limit }) => `/admin/servers/${enc(id)}/audit-logs?page=${page}&limit=${limit}`,
    }),
    // Billing answers the server's new state: shown at once (the admin read model follows it a moment later,
    // so a refetch now could still answer the old one; the page's 10 s poll brings the new tier's limits).
    setServerTier: build.mutation<StaffServerState, { id: string; tier: string }>({
      query: ({ id, tier }) => ({ url: `/admin/servers/${enc(id)}/tier`, method: 'PUT', body: { tier } }),
      onQueryStarted: async ({ id }, { dispatch, queryFulfilled }) => {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(adminApi.util.updateQueryData('adminServer', id, (draft) => Object.assign(draft, { tier: data.tier, is_suspended: data.is_suspended })));
      },
    }),
    setServerSuspended: build.mutation<StaffServerState, { id: string; suspended: boolean }>({
      query: ({ id, suspended }) => ({ url: `/admin/servers/${enc(id)}/suspend`, method: 'PUT', body: { suspended } }),
      onQueryStarted: async ({ id }, { dispatch, queryFulfilled }) => {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(adminApi.util.updateQueryData('adminServer', id, (draft) => Object.assign(draft, { tier: data.tier, is_suspended: data.is_suspended })));
      },
    }),
    addAdminServerUser: build.mutation<AddServerUserAnswer, { id: string; email: string; role: string }>({
      query: ({ id, email, role }) => ({ url: `/admin/servers/${enc(id)}/users`, method: 'POST', body: { email, role } }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'AdminServerUsers', id }, { type: 'AdminServer', id }],
    }),
    // Auth answers once the change is made; the list (the admin read model) follows a moment later, so the
    // known outcome is applied to the cached list and the tab's poll brings the read model's.
    changeAdminServerUserRole: build.mutation<MessageAnswer, { id: string; userId: string; role: AdminMemberRole }>({
      query: ({ id, userId, role }) => ({ url: `/admin/servers/${enc(id)}/users/${enc(userId)}`, method: 'PUT', body: { role } }),
      onQueryStarted: async ({ id, userId, role }, { dispatch, queryFulfilled }) => {
        const changed = await queryFulfilled.then(
          () => true,
          () => false,
        );
        if (changed) dispatch(adminApi.util.updateQueryData('adminServerUsers', id, (draft) => withMemberRole(draft, userId, role)));
      },
    }),
    removeAdminServerUser: build.mutation<MessageAnswer, { id: string; userId: string }>({
      query: ({ id, userId }) => ({ url: `/admin/servers/${enc(id)}/users/${enc(userId)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'AdminServerUsers', id }, { type: 'AdminServer', id }],
    }),
    adminLogs: build.query<AdminLogList, undefined>({ query: () => '/admin/logs' }),
  }),
});

export const {
  useAdminStatsQuery,
  useAdminUsersQuery,
  useSetUserRoleMutation,
  useSetUserActiveMutation,
  useAdminServersQuery,
  useAdminTiersQuery,
  useAdminServerQuery,
  useAdminServerUsersQuery,
  useAdminServerLogsQuery,
  useAdminServerBackupsQuery,
  useAdminServerPhotosQuery,
  useAdminServerAuditQuery,
  useSetServerTierMutation,
  useSetServerSuspendedMutation,
  useAddAdminServerUserMutation,
  useChangeAdminServerUserRoleMutation,
  useRemoveAdminServerUserMutation,
  useAdminLogsQuery,
} = adminApi;
