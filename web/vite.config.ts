import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Text files worth compressing; images and fonts are compressed formats already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this the gateway sends answers uncompressed too (gateway/src/compression.ts). */
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) beside every text file of the
 * build, once: the gateway serves them precompressed (@fastify/static preCompressed) instead of
 * compressing the same bytes on every request, at a quality no per-request compressor could afford.
 */
function precompress(): Plugin {
  return {
    name: 'skald-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      const files = Object.keys(bundle).filter((name) => COMPRESSIBLE.test(name) && !name.startsWith('.vite/'));
      await Promise.all(
        files.map(async (name) => {
          const path = join(dir, name);
          const bytes = await readFile(path);
          if (bytes.length < MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
            gzipped(bytes, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
        }),
      );
    },
  };
}

// The gateway serves dist/ at / in all-in-one mode; in dev the API is proxied to it.
export default defineConfig({
  base: '/',
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The biggest chunk is the dashboard's (the bar-chart part of echarts, 540 kB raw); a chunk past
    // 600 kB means something large came back (all of echarts is 1 MB). No manual vendor chunks: the
    // automatic split already keeps each library with the screens that import it, so a public page
    // downloads no signed-in screen's code (web/test/first-load-split.test.ts).
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: { '/api': 'http://localhost:8080' },
  },
});
