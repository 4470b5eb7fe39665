// What the browser received for a screen's scripts and stylesheets: the encoding it
// asked for, the encoding served, the size once decoded and the caching header.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Response } from 'playwright-core';

/**
 * The build writes .br/.gz copies of text files from this size on (web/vite.config.ts MIN_BYTES); smaller
 * ones are served as they are, compression would save next to nothing.
 */
export const PRECOMPRESSED_FROM_BYTES = 1024;

export interface AssetAnswer {
  path: string;
  kind: 'js' | 'css';
  status: number;
  /** Decoded body size. */
  bytes: number;
  /** Body bytes as they came over the wire (encoded). */
  transferred: number;
  acceptEncoding: string;
  contentEncoding: string | null;
  cacheControl: string | null;
}

function assetKind(url: string): AssetAnswer['kind'] | null {
  const path = new URL(url).pathname;
  if (path.endsWith('.js')) return 'js';
  if (path.endsWith('.css')) return 'css';
  return null;
}

/** Runs `load` and lists every script and stylesheet the page fetched meanwhile (until the network is idle). */
export async function assetsLoadedBy(page: Page, load: () => Promise<unknown>): Promise<AssetAnswer[]> {
  const seen: Response[] = [];
  const onResponse = (response: Response) => {
    if (assetKind(response.url())) seen.push(response);
  };
  page.on('response', onResponse);
  try {
    await load();
    await page.waitForLoadState('networkidle');
  } finally {
    page.off('response', onResponse);
  }
  return Promise.all(
    seen.map(async (response) => {
      const [request, headers, body, sizes] = await Promise.all([response.request().allHeaders(), response.allHeaders(), response.body(), response.request().sizes()]);
      return {
        path: new URL(response.url()).pathname,
        kind: assetKind(response.url()) ?? 'js',
        status: response.status(),
        bytes: body.length,
        transferred: sizes.responseBodySize,
        acceptEncoding: request['accept-encoding'] ?? '',
        contentEncoding: headers['content-encoding'] ?? null,
        cacheControl: headers['cache-control'] ?? null,
      };
    }),
  );
}

/**
 * Size of the brotli copy the build wrote beside `path` (dist/assets/x.js.br), or null when it wrote none.
 * An asset sent with exactly that many bytes was served precompressed, not compressed per request.
 */
export function builtBrotliBytes(dist: string, path: string): number | null {
  const file = join(dist, `${path}.br`);
  return existsSync(file) ? statSync(file).size : null;
}
