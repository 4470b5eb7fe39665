import type { ApiKeyResetAnswer, CleanupAnswer, LevelColors, LevelColorsUpdate, RenameServerAnswer } from '@skald/contracts/api';
import { apiSlice } from '../../app/api.ts';

/** The server settings screen's changes (docs/spec/part-2.txt section 7); the colours and levels it reads come from logsApi. */
export const settingsApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    saveColors: build.mutation<LevelColors, { serverId: string; colors: LevelColorsUpdate }>({
      query: ({ serverId, colors }) => ({ url: '/settings/colors', method: 'PUT', params: { serverId }, body: colors }),
      invalidatesTags: ['Colors'],
    }),
    resetApiKey: build.mutation<ApiKeyResetAnswer, string>({
      query: (serverId) => ({ url: '/settings/api-key/reset', method: 'POST', params: { serverId } }),
    }),
    // Then the server list (GET /auth/me) refreshes, and the sidebar and title follow the new name.
    renameServer: build.mutation<RenameServerAnswer, { serverId: string; newName: string }>({
      query: (body) => ({ url: '/settings/server-name', method: 'PATCH', body }),
      invalidatesTags: ['Me'],
    }),
    cleanupLogs: build.mutation<CleanupAnswer, { serverId: string; days: number }>({
      query: ({ serverId, days }) => ({ url: '/logs/cleanup', method: 'DELETE', params: { serverId, days: String(days) } }),
      invalidatesTags: ['Logs', 'PhotoLogs', 'Stats', 'Usage'],
    }),
  }),
});

export const { useSaveColorsMutation, useResetApiKeyMutation, useRenameServerMutation, useCleanupLogsMutation } = settingsApi;

// docs/spec/part-2.txt sections 5, 8, as written.
export const SETTINGS_TEXT = {
  loading: 'Loading...',
  loadFailed: 'Failed to gather information.',
  saveFailed: 'Saving failed.',
  resetFailed: 'Resetting API key failed.',
  renameFailed: 'Updating server name failed.',
  cleanupFailed: 'Deleting logs failed.',
  invalidDays: 'Insert a valid amount of days (0 or more)',
} as const;

/** 'Logs deleted: N' (docs/spec/part-2.txt section 7). */
export function logsDeletedText(count: number): string {
  return `Logs deleted: ${count}`;
}

/**
 * The days of Delete Logs (docs/spec/part-2.txt section 5): present, a whole number and 0 or more, else null (the button is
 * disabled and the spec's message shows). The server checks the same and answers the same message.
 */
export function parseDays(input: string): number | null {
  const text = input.trim();
  if (!/^\d+$/.test(text)) return null;
  const days = Number(text);
  return Number.isSafeInteger(days) ? days : null;
}

/**
 * A colour as `<input type="color">` holds it (#rrggbb): #rgb is expanded; the alpha of #rgba and
 * #rrggbbaa is not shown by the picker (the value is kept unless the user picks another colour).
 */
export function pickerValue(color: string): string {
  const hex = color.replace('#', '').toLowerCase();
  if (hex.length === 3 || hex.length === 4) return `#${[...hex.slice(0, 3)].map((c) => c + c).join('')}`;
  return `#${hex.slice(0, 6)}`;
}

/** Only the levels whose colours the user changed, so untouched levels keep their exact stored values. */
export function changedColors(saved: LevelColors, edited: LevelColors): LevelColorsUpdate {
  const changes: LevelColorsUpdate = {};
  for (const level of Object.keys(saved) as (keyof LevelColors)[]) {
    const before = saved[level];
    const after = edited[level];
    if (before.bg_color !== after.bg_color || before.text_color !== after.text_color) changes[level] = after;
  }
  return changes;
}
