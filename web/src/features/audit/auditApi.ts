import type { AuditLogPage } from '@skald/contracts/api';
import { apiSlice } from '../../app/api.ts';

export interface AuditLogsArgs {
  readonly serverId: string;
  /** A user id; '' for every user. */
  readonly user: string;
  /** An action name; '' for every action. */
  readonly action: string;
  /** From 1. */
  readonly page: number;
  readonly pageSize: number;
}

/** A server's audit trail: filters and paging run on the server. */
export const auditApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    auditLogs: build.query<AuditLogPage, AuditLogsArgs>({
      query: ({ serverId, user, action, page, pageSize }) => {
        const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
        if (user) params.set('user', user);
        if (action) params.set('action', action);
        return `/server/${encodeURIComponent(serverId)}/audit-logs?${params.toString()}`;
      },
    }),
  }),
});

export const { useAuditLogsQuery } = auditApi;

/** An entry's details as the table shows them: text as is, an object as JSON text (docs/spec/part-2.txt section 3). */
export function detailsText(details: AuditLogPage['logs'][number]['details']): string {
  return typeof details === 'string' ? details : JSON.stringify(details);
}
