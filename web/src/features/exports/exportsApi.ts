import type { ExportStatus, ExportType } from '@skald/contracts/api';
import { apiSlice } from '../../app/api.ts';

/** Hands a downloaded file to the browser (a module of its own so tests can replace it). */
export const fileSaver = {
  save(blob: Blob, filename: string): void {
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    link.rel = 'noopener';
    document.body.appendChild(link);
    link.click();
    link.remove();
    // The browser has started the download once click() returns; the URL is freed a little later.
    window.setTimeout(() => URL.revokeObjectURL(url), 30_000);
  },
};

/** Today in the browser's own calendar, yyyy-MM-dd (the date pickers' default, docs/spec/part-2.txt section 2). */
export function localDay(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** `{type}-{date}.csv` / `.pdf` (docs/spec/part-2.txt section 7). */
export function exportFilename(type: ExportType | 'custom', format: 'csv' | 'pdf', now = new Date()): string {
  return `${type}-${localDay(now)}.${format}`;
}

export interface DownloadArgs {
  /** Path and query after /api, e.g. `/exports/logs?serverId=…`. */
  readonly path: string;
  readonly filename: string;
}

export const exportsApi = apiSlice.enhanceEndpoints({ addTagTypes: ['ExportStatus'] }).injectEndpoints({
  endpoints: (build) => ({
    exportStatus: build.query<ExportStatus, string>({
      query: (serverId) => `/exports/status?serverId=${encodeURIComponent(serverId)}`,
      providesTags: (_r, _e, serverId) => [{ type: 'ExportStatus', id: serverId }],
    }),
    /**
     * Fetches an export and saves it. The file goes to the browser inside the response handler, so the
     * store only ever holds its size (a Blob is no state); an error answer is read as JSON as usual.
     */
    downloadExport: build.mutation<{ bytes: number }, DownloadArgs & { serverId: string }>({
      query: ({ path, filename }) => ({
        url: path,
        responseHandler: async (response: Response) => {
          if (!response.ok) return response.json().catch(() => ({}));
          const blob = await response.blob();
          fileSaver.save(blob, filename);
          return { bytes: blob.size };
        },
      }),
      invalidatesTags: (_r, _e, { serverId }) => [{ type: 'ExportStatus', id: serverId }],
    }),
  }),
});

export const { useExportStatusQuery, useDownloadExportMutation } = exportsApi;
